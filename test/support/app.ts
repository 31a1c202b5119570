import type { FastifyInstance } from "fastify";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { ManualClock } from "../../src/clock.js";
import { HostSettings } from "../../src/config/host-settings.js";
import { createServices, type Services } from "../../src/services.js";
import type { Storage } from "../../src/storage/connect.js";
import { createTestStorage, type TestStorage } from "./storage.js";

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  clock: ManualClock;
  testStorage: TestStorage;
  /** Every throttling delay the app asked for, in ms (the app never really sleeps in tests). */
  sleeps: number[];
  close(): Promise<void>;
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
): Promise<Pick<TestApp, "app" | "services" | "clock" | "sleeps">> {
  const services = createServices({
    storage,
    dataDir,
    clock,
    settings: new HostSettings(dataDir),
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
  });
  const sleeps: number[] = [];
  const app = await buildApp({
    services,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  await app.ready();
  return { app, services, clock, sleeps };
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
