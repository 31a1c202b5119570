import type { FastifyInstance } from "fastify";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { ManualClock } from "../../src/clock.js";
import { HostSettings } from "../../src/config/host-settings.js";
import { Metrics } from "../../src/observability/metrics.js";
import { createServices, type Services } from "../../src/services.js";
import type { Storage } from "../../src/storage/driver/connect.js";
import { createTestStorage, type TestStorage } from "./storage.js";

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  clock: ManualClock;
  testStorage: TestStorage;
  /** Every throttling delay the app asked for, in ms (the app never really sleeps in tests). */
  sleeps: number[];
  /** Holds the delays on request, so concurrent attempts stay in flight (see DelayHold). */
  delays: DelayHold;
  close(): Promise<void>;
}

/**
 * While held, every throttling delay waits until `release()` instead of returning at once: a test
 * keeps delayed attempts in flight to see what the attempts sent alongside them get. Nothing sleeps.
 */
export class DelayHold {
  private waiting: Array<() => void> = [];
  private readonly watchers = new Set<() => void>();
  private holding = false;

  /** How many attempts are waiting now. */
  get held(): number {
    return this.waiting.length;
  }

  hold(): void {
    this.holding = true;
  }

  release(): void {
    this.holding = false;
    for (const resume of this.waiting.splice(0)) resume();
  }

  /** Resolves once `condition` holds, checked now and after every held delay or `changed()` call. */
  until(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!condition()) return;
        this.watchers.delete(check);
        resolve();
      };
      this.watchers.add(check);
      check();
    });
  }

  /** Tells the watchers something they may be waiting for happened (e.g. a response arrived). */
  changed(): void {
    for (const watch of [...this.watchers]) watch();
  }

  async wait(): Promise<void> {
    if (!this.holding) return;
    const resumed = new Promise<void>((resume) => this.waiting.push(resume));
    this.changed();
    await resumed;
  }
}

/** The whole application on real storage, with a manual clock and recorded (not slept) delays. */
export async function createTestApp(): Promise<TestApp> {
  const testStorage = await createTestStorage();
  const node = await createAppOn(testStorage.storage, testStorage.dataDir, new ManualClock());
  return {
    ...node,
    testStorage,
    async close() {
      await node.app.close();
      await testStorage.cleanup();
    },
  };
}

/**
 * One more application node on storage that already exists (another connection to the same
 * SQLite file or PostgreSQL database, as a second server would have). Closing it leaves the storage open.
 */
export async function createAppOn(
  storage: Storage,
  dataDir: string,
  clock: ManualClock,
): Promise<Pick<TestApp, "app" | "services" | "clock" | "sleeps" | "delays">> {
  const metrics = new Metrics();
  // What the server opens its storage with (src/server.ts): every statement timed into the metrics.
  storage.observeQueries((ms, failed) => metrics.observeQuery(ms, failed));
  const services = createServices({
    storage,
    dataDir,
    clock,
    settings: new HostSettings(dataDir),
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
    metrics,
  });
  const sleeps: number[] = [];
  const delays = new DelayHold();
  const app = await buildApp({
    services,
    sleep: async (ms) => {
      sleeps.push(ms);
      await delays.wait();
    },
  });
  await app.ready();
  return { app, services, clock, sleeps, delays };
}

/**
 * A second app over the same services that believes X-Forwarded-* from 127.0.0.1 (the address
 * `inject` uses): what Keystream behind a TLS-terminating proxy sees. Close it before `t.close()`.
 */
export async function createProxiedApp(t: Pick<TestApp, "services">): Promise<FastifyInstance> {
  const proxied = await buildApp({ services: t.services, trustedProxies: ["127.0.0.1"], sleep: async () => {} });
  await proxied.ready();
  return proxied;
}
