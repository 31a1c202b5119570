import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import pino from "pino";
import { mintGrants } from "../../bench/lib/mint.js";
import { createServices, type Services } from "../../src/services.js";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import { migrateToLatest } from "../../src/storage/lifecycle/migrate.js";
import { accepted } from "../../test/support/results.js";
import { exchange, sleep } from "./http.js";
import type { DatabaseKind } from "./options.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const MAIN = path.join(ROOT, "dist", "main.js");

export const CLIENT = {
  id: "chaos-client-id-0123456789abcdef",
  secret: "chaos-secret-0123456789abcdef0123456789",
  redirect: "http://127.0.0.1:9/cb",
};
export const USER = "chaos-user";
export const ADMIN = "chaos-admin";

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function adminQuery(adminUrl: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/**
 * One Keystream deployment under test: a fresh data directory and database (SQLite file, or a new
 * PostgreSQL database on the admin URL), seeded with a user, an administrator with an app
 * password and a confidential OAuth client; and the server, `node dist/main.js`, as a child process
 * on a fixed loopback port, so it can be killed and restarted where clients expect it.
 */
export class Deployment {
  server: ChildProcess | undefined;
  /** How many times the server was started. */
  starts = 0;
  readonly base: string;

  private constructor(
    readonly kind: DatabaseKind,
    readonly dataDir: string,
    readonly databaseUrl: string | undefined,
    readonly storage: Storage,
    readonly services: Services,
    readonly adminSecret: string,
    readonly port: number,
    private readonly dropDatabase: () => Promise<void>,
  ) {
    this.base = `http://127.0.0.1:${port}`;
  }

  static async create(
    kind: DatabaseKind,
    adminUrl: string | undefined,
    settings: Record<string, number> = {},
  ): Promise<Deployment> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `keystream-chaos-${kind}-`));
    let databaseUrl: string | undefined;
    let drop = async () => {};
    if (kind === "postgres") {
      if (!adminUrl) throw new Error("no PostgreSQL admin URL (CHAOS_DATABASE_URL or KEYSTREAM_TEST_DATABASE_URL)");
      const name = `ks_chaos_${randomBytes(5).toString("hex")}`;
      await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      drop = async () => {
        await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      };
    }
    const storage = openStorage({ databaseUrl, dataDir });
    await migrateToLatest(storage);
    const services = createServices({ storage, dataDir, log: pino({ level: "silent" }) });
    for (const [name, value] of Object.entries(settings)) services.settings.set(name as never, value);
    accepted(await services.users.create({ uid: USER, displayName: "Chaos User" }));
    accepted(await services.users.create({ uid: ADMIN, displayName: "Chaos Admin", isAdmin: true }));
    const { secret } = accepted(await services.appPasswords.create(ADMIN, "chaos"));
    const added = await services.oauth.clients.add({
      name: "Chaos client",
      clientId: CLIENT.id,
      secret: CLIENT.secret,
      redirectUri: CLIENT.redirect,
      allowSubdomains: "false",
      trusted: "false",
      forceTrust: "true",
    });
    if (!added.ok) throw new Error(`client not added: ${added.message}`);
    return new Deployment(kind, dataDir, databaseUrl, storage, services, secret, await freePort(), drop);
  }

  /** `Basic` for the administrator's app password (publishing needs an administrator). */
  get adminAuthorization(): string {
    return `Basic ${Buffer.from(`${ADMIN}:${this.adminSecret}`).toString("base64")}`;
  }

  /** Starts the server and waits (≤ 30 s) until it answers status.php. */
  async start(extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
    this.starts += 1;
    const logFile = fs.openSync(path.join(this.dataDir, `server-${this.starts}.log`), "a");
    const child = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: {
        ...process.env,
        KEYSTREAM_DATA_DIR: this.dataDir,
        KEYSTREAM_DATABASE_URL: this.databaseUrl ?? "",
        HOST: "127.0.0.1",
        PORT: String(this.port),
        LOG_LEVEL: "info",
        ...extraEnv,
      },
      stdio: ["ignore", logFile, logFile],
    });
    fs.closeSync(logFile);
    this.server = child;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited at start: ${this.logTail()}`);
      const answer = await exchange(`${this.base}/status.php`, {}, 1000);
      if (answer.answered && answer.status === 200) return child;
      await sleep(50);
    }
    throw new Error(`server did not answer within 30 s: ${this.logTail()}`);
  }

  /** kill -9: no shutdown of any kind, as a crash or the OOM killer. */
  async kill(): Promise<void> {
    const child = this.server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  /** SIGTERM; resolves with the exit code/signal and how long the process took to exit. */
  async terminate(timeoutMs = 60_000): Promise<{ code: number | null; signal: string | null; ms: number }> {
    const child = this.server;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      return { code: child?.exitCode ?? null, signal: child?.signalCode ?? null, ms: 0 };
    }
    const started = performance.now();
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const result = await exited;
    clearTimeout(timer);
    return { ...result, ms: performance.now() - started };
  }

  get alive(): boolean {
    return this.server !== undefined && this.server.exitCode === null && this.server.signalCode === null;
  }

  /** Resident memory of the server process (Linux /proc), in MB. */
  rssMb(): number {
    const pid = this.server?.pid;
    if (pid === undefined) return Number.NaN;
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  }

  logTail(lines = 20): string {
    const file = path.join(this.dataDir, `server-${this.starts}.log`);
    return fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n") : "(no log)";
  }

  /**
   * Authorization codes and refresh tokens written straight into the tables, as the authorize and
   * token endpoints write them (one grant each, SHA-256 at rest): a pool made before the load, so
   * the load measures only the exchanges.
   */
  async mint(kind: "code" | "refresh", n: number): Promise<string[]> {
    const client = await this.storage.db
      .selectFrom("oauth2_clients")
      .select("id")
      .where("client_id", "=", CLIENT.id)
      .executeTakeFirstOrThrow();
    return mintGrants(this.storage.db, { clientInternalId: Number(client.id), uid: USER, redirectUri: CLIENT.redirect }, kind, n);
  }

  private storageClosed = false;

  /**
   * Closes the runner's own connections to the database (seeding and checks use them). Before a
   * database outage: pg's pool would otherwise raise an unhandled 'error' in the runner when its
   * idle connections are terminated.
   */
  async closeStorage(): Promise<void> {
    if (this.storageClosed) return;
    this.storageClosed = true;
    await this.storage.close();
  }

  /** Stops the server if it runs, closes the runner's connection, drops the database, deletes the directory. */
  async cleanup(): Promise<void> {
    if (this.alive) await this.terminate(10_000);
    await this.closeStorage();
    await this.dropDatabase();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
