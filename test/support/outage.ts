import net from "node:net";
import path from "node:path";
import type { TestContext } from "node:test";
import SqliteDatabase from "better-sqlite3";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { ManualClock } from "../../src/clock.js";
import type { Services } from "../../src/services.js";
import type { AvailabilityLog } from "../../src/storage/driver/availability.js";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import { createAppOn } from "./app.js";
import type { TestStorage } from "./storage.js";

/** Database faults for tests (issue 16): captured outage logs, an app on its own connection, fake servers. */

export interface CapturedLog extends AvailabilityLog {
  lines: Array<{ level: "warn" | "info"; fields: Record<string, unknown>; message: string }>;
  /** The lines with this `event` field. */
  events(event: string): Array<Record<string, unknown>>;
}

export function captureLog(): CapturedLog {
  const lines: CapturedLog["lines"] = [];
  return {
    lines,
    warn: (fields, message) => lines.push({ level: "warn", fields: fields as Record<string, unknown>, message }),
    info: (fields, message) => lines.push({ level: "info", fields: fields as Record<string, unknown>, message }),
    events: (event) => lines.filter((line) => line.fields.event === event).map((line) => line.fields),
  };
}

export interface OutageApp {
  app: FastifyInstance;
  services: Services;
  storage: Storage;
  /** What the storage's availability monitor logged. */
  log: CapturedLog;
  close(): Promise<void>;
}

/** How often appWithOwnStorage's availability monitor probes the database during an outage. */
const OUTAGE_PROBE_MS = 100;

/**
 * Makes the availability monitor's probe (storage/driver/availability.ts, scheduled with setInterval) run
 * only when the test calls `probe()`: node:test's mock timers take over setInterval for the rest
 * of the test. An outage ends at a probe that succeeds with no failure reported since the one
 * before, so concurrent requests that meet the same fault fall into one outage only when no probe
 * runs between their failures; on a loaded machine a real 100 ms interval can. Call it before the
 * outage starts.
 */
export function probeOnDemand(t: TestContext): { probe(): void } {
  t.mock.timers.enable({ apis: ["setInterval"] });
  return { probe: () => t.mock.timers.tick(OUTAGE_PROBE_MS) };
}

/**
 * The whole application on a connection of its own to the test's database (or to `databaseUrl`),
 * with the given timeouts, a fast outage probe (100 ms) and the outage log captured.
 */
export async function appWithOwnStorage(
  t: Pick<TestStorage, "dataDir" | "databaseUrl">,
  options: { statementMs?: number; connectMs?: number; databaseUrl?: string } = {},
): Promise<OutageApp> {
  const log = captureLog();
  const storage = openStorage({
    databaseUrl: options.databaseUrl ?? t.databaseUrl,
    dataDir: t.dataDir,
    timeouts: { statementMs: options.statementMs, connectMs: options.connectMs },
    log,
    probeIntervalMs: OUTAGE_PROBE_MS,
  });
  const node = await createAppOn(storage, t.dataDir, new ManualClock());
  return {
    app: node.app,
    services: node.services,
    storage,
    log,
    async close() {
      await node.app.close();
      await storage.close();
    },
  };
}

/** A TCP port on 127.0.0.1 where nothing listens (connecting is refused). */
export async function refusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A "database" that accepts connections and never answers: a hung PostgreSQL, as a client sees one. */
export async function hungServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A TCP relay to PostgreSQL that can freeze: while frozen it keeps every connection open but
 * passes nothing on, in either direction (a hung server or network, as the client sees it).
 */
export async function freezableRelay(
  target: URL,
): Promise<{ url: string; freeze(): void; thaw(): void; close(): Promise<void> }> {
  let frozen = false;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const relay = (from: net.Socket, to: net.Socket) =>
      from.on("data", (chunk: Buffer) => {
        if (!frozen) to.write(chunk);
      });
    relay(client, upstream);
    relay(upstream, client);
    for (const socket of pair) {
      socket.on("error", () => undefined);
      socket.on("close", () => {
        client.destroy();
        upstream.destroy();
        pairs.delete(pair);
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target.toString());
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
    },
    close: async () => {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Holds the write lock on `table` from another connection, as another writer beside the server
 * would: on PostgreSQL `LOCK TABLE … IN ACCESS EXCLUSIVE MODE` in an open transaction, on SQLite a
 * `BEGIN IMMEDIATE` on the same file (as `./occ`). Returns the release; calling it again does
 * nothing, so a test may release early and still leave it to its cleanup.
 */
export async function holdTableLock(t: TestStorage, table: string): Promise<() => Promise<void>> {
  if (t.databaseUrl) {
    const admin = new pg.Client({ connectionString: t.databaseUrl });
    admin.on("error", () => undefined);
    await admin.connect();
    await admin.query("BEGIN");
    await admin.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await admin.query("ROLLBACK").catch(() => undefined);
      await admin.end().catch(() => undefined);
    };
  }
  const other = new SqliteDatabase(path.join(t.dataDir, "keystream.sqlite"));
  other.prepare("BEGIN IMMEDIATE").run();
  return async () => {
    if (!other.open) return;
    other.prepare("ROLLBACK").run();
    other.close();
  };
}
