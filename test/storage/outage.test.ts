import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, it } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import type { LightMyRequestResponse } from "fastify";
import { sql } from "kysely";
import pg from "pg";
import { ManualClock, systemClock } from "../../src/clock.js";
import { JobScheduler } from "../../src/jobs/scheduler.js";
import { DatabaseUnavailableError, isDatabaseUnavailable, raisedByDatabase } from "../../src/storage/driver/availability.js";
import { openStorage } from "../../src/storage/driver/connect.js";
import { migrateToLatest } from "../../src/storage/lifecycle/migrate.js";
import { SqlJobLeaseStore } from "../../src/storage/stores/jobs/job-lease-store.js";
import { createAppOn } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { eventually } from "../support/eventually.js";
import {
  appWithOwnStorage,
  captureLog,
  freezableRelay,
  holdTableLock,
  type OutageApp,
  probeOnDemand,
  refusedPort,
} from "../support/outage.js";
import { accepted } from "../support/results.js";
import { createTestStorage, type TestStorage, testDatabaseDialect } from "../support/storage.js";

/**
 * Database faults. The app runs on a connection of its own (appWithOwnStorage) with
 * short timeouts; faults are made for real: backends terminated from an admin connection, locks
 * held by another connection, a full disk (SQLite: max_page_count on the server's connection;
 * PostgreSQL: a trigger raising SQLSTATE 53100 disk_full), a relay that stops passing bytes.
 */

const POSTGRES_ONLY = testDatabaseDialect === "postgres" ? false : "PostgreSQL only (SQLite has no connection to lose)";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function testStorage(): Promise<TestStorage> {
  const t = await createTestStorage();
  cleanups.push(() => t.cleanup());
  return t;
}

async function app(t: TestStorage, options: Parameters<typeof appWithOwnStorage>[1] = {}): Promise<OutageApp> {
  const node = await appWithOwnStorage(t, options);
  cleanups.push(() => node.close());
  return node;
}

/** A connection to the test's PostgreSQL database, outside the app. */
async function adminClient(t: TestStorage): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: t.databaseUrl });
  client.on("error", () => undefined);
  await client.connect();
  cleanups.push(() => client.end().catch(() => undefined));
  return client;
}

/** The admin user publishing activities over HTTP Basic with an app password. */
async function publisher(
  node: Pick<OutageApp, "app" | "services">,
): Promise<(events: unknown[]) => Promise<LightMyRequestResponse>> {
  accepted(await node.services.users.create({ uid: "admin", password: "admin password", isAdmin: true }));
  const { secret } = accepted(await node.services.appPasswords.create("admin", "outage test"));
  const authorization = `Basic ${Buffer.from(`admin:${secret}`).toString("base64")}`;
  return (events) =>
    node.app.inject({
      method: "POST",
      url: "/index.php/apps/activity/api/v2/events",
      payload: JSON.stringify(events),
      headers: { authorization, "content-type": "application/json", accept: "application/json" },
    });
}

function events(count: number, objectName = (i: number) => `/file-${i}.txt`): unknown[] {
  return Array.from({ length: count }, (_, i) => ({
    app: "files",
    type: "file_changed",
    affecteduser: "admin",
    user: "admin",
    subject: "changed_self",
    subjectparams: [{ type: "file", value: objectName(i), id: i }],
    object_type: "files",
    object_id: i,
    object_name: objectName(i),
  }));
}

async function activityCount(node: Pick<OutageApp, "storage">): Promise<number> {
  const row = await node.storage.db
    .selectFrom("activity")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function assertUnavailable(response: LightMyRequestResponse): void {
  assert.equal(response.statusCode, 503, response.body);
  assert.ok(Number(response.headers["retry-after"]) > 0, "Retry-After");
}

describe("which errors mean the database is unavailable", () => {
  it("an error a database call raised is classified as the database being unavailable by its code, never by its message", () => {
    const coded = (code: string) => raisedByDatabase(Object.assign(new Error("any text"), { code }));
    for (const code of ["57P01", "57P02", "57P03", "08006", "08001", "53100", "53300", "57014", "55P03"]) {
      assert.equal(isDatabaseUnavailable(coded(code)), true, code);
    }
    for (const code of ["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_FULL", "SQLITE_IOERR_WRITE", "SQLITE_LOCKED"]) {
      assert.equal(isDatabaseUnavailable(coded(code)), true, code);
    }
    for (const code of ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT"]) assert.equal(isDatabaseUnavailable(coded(code)), true, code);
    // A request's own fault, a bug, or a message that merely sounds like an outage: not unavailable.
    for (const code of ["23505", "22001", "42P01", "28P01", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_ERROR", "ERR_INVALID_CHAR"]) {
      assert.equal(isDatabaseUnavailable(coded(code)), false, code);
    }
    assert.equal(isDatabaseUnavailable(raisedByDatabase(new Error("Connection terminated unexpectedly"))), false);
    assert.equal(isDatabaseUnavailable(new DatabaseUnavailableError("lost", "connection_lost")), true);
  });

  it("only the database's own errors count: the same codes raised elsewhere (a client's socket) are not an outage", () => {
    for (const code of ["ECONNRESET", "ECONNABORTED", "EPIPE", "ETIMEDOUT", "SQLITE_BUSY", "57P01"]) {
      assert.equal(isDatabaseUnavailable(Object.assign(new Error("aborted"), { code })), false, code);
    }
  });

  it("an error a real statement meets is the database's: a write waiting for a lock past the statement timeout", async () => {
    const t = await testStorage();
    const own = openStorage({ databaseUrl: t.databaseUrl, dataDir: t.dataDir, timeouts: { statementMs: 200 } });
    cleanups.push(() => own.close());
    const release = await holdTableLock(t, "sessions");
    cleanups.push(release);
    const failed = await sql`delete from sessions`.execute(own.db).catch((error: unknown) => error);
    assert.ok(failed instanceof Error, "the statement failed");
    assert.equal(isDatabaseUnavailable(failed), true, String(failed));
  });
});

describe("PostgreSQL connections dropped under the pool", { skip: POSTGRES_ONLY }, () => {
  it("PostgreSQL terminating the pool's idle connections leaves the app serving, with one warning", async () => {
    const t = await testStorage();
    const node = await app(t);
    const publish = await publisher(node);
    // Several requests at once: the pool holds several connections, idle afterwards.
    const warm = await Promise.all([1, 2, 3, 4].map((i) => publish(events(1, () => `/warm-${i}.txt`))));
    for (const response of warm) assert.equal(response.statusCode, 201);
    const admin = await adminClient(t);
    const { rowCount } = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    assert.ok((rowCount ?? 0) >= 2, "the app's idle connections were terminated");
    // The pool's 'error' event (once unhandled: the process exited) is logged, once.
    await eventually("the pool reported its lost connections", () => node.log.events("database_unavailable").length > 0);
    assert.equal(node.log.events("database_unavailable").length, 1);
    // A request that drew a connection whose termination had not arrived yet is refused with a
    // 503 (never a 500); new connections serve the requests after it.
    await eventually("service returns", async () => {
      const response = await publish(events(1, () => "/after.txt"));
      if (response.statusCode !== 201) assertUnavailable(response);
      return response.statusCode === 201;
    });
    await eventually("the outage's end was logged", () => node.log.events("database_available").length === 1);
  });

  it("terminating a connection under a running statement answers 503 with Retry-After, and the next request succeeds", async () => {
    const t = await testStorage();
    const node = await app(t, { statementMs: 20_000 });
    const publish = await publisher(node);
    const admin = await adminClient(t);
    // Hold the table so that the request's INSERT is still running when its backend is terminated.
    await admin.query("BEGIN");
    await admin.query("LOCK TABLE activity IN ACCESS EXCLUSIVE MODE");
    const pending = publish(events(1));
    let waiting: number | undefined;
    await eventually("the request waits for the lock", async () => {
      const { rows } = await admin.query(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      waiting = rows[0]?.pid;
      return waiting !== undefined;
    });
    await admin.query("SELECT pg_terminate_backend($1)", [waiting]);
    assertUnavailable(await pending);
    await admin.query("ROLLBACK");
    assert.equal(await activityCount(node), 0, "nothing of the terminated request was written");
    const again = await publish(events(1));
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(node.log.events("database_unavailable").length, 1);
  });

  it("a database that stops answering mid-connection answers 503 within the bound, and service returns when it answers again", async () => {
    const t = await testStorage();
    const relay = await freezableRelay(new URL(t.databaseUrl as string));
    cleanups.push(() => relay.close());
    const node = await app(t, { databaseUrl: relay.url, statementMs: 300, connectMs: 300 });
    const publish = await publisher(node);
    assert.equal((await publish(events(1))).statusCode, 201);
    relay.freeze();
    // The open connection gets no answer (the server's statement timeout cannot help a hung
    // server): the client gives up on it; a new connection cannot start either.
    assertUnavailable(await publish(events(1)));
    assertUnavailable(await publish(events(1)));
    relay.thaw();
    await eventually("service returns", async () => (await publish(events(1))).statusCode === 201);
    assert.equal(node.log.events("database_unavailable").length, 1);
  });
});

describe("a settings form during an outage", {
  skip: testDatabaseDialect === "postgres" ? false : "PostgreSQL only (a fault on one table's writes is a trigger there)",
}, () => {
  it("creating an app password on a full disk answers 503, not the database's message in a 400 page", async () => {
    const t = await testStorage();
    const node = await app(t);
    accepted(await node.services.users.create({ uid: "alice", password: "alice password" }));
    const browser = new FormClient(node.app);
    assert.equal((await browser.login("alice", "alice password")).statusCode, 303);
    const token = requestTokenOf((await browser.get("/index.php/settings/personal")).body);
    // The disk is full for this table's writes only: the page around the form still reads.
    const admin = await adminClient(t);
    await admin.query(`CREATE FUNCTION ks_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`);
    await admin.query(
      "CREATE TRIGGER ks_test_disk_full BEFORE INSERT ON app_passwords FOR EACH ROW EXECUTE FUNCTION ks_test_disk_full()",
    );
    const refused = await browser.post(
      "/index.php/settings/personal/app-passwords",
      { requesttoken: token, name: "phone" },
      { accept: "text/html" },
    );
    assertUnavailable(refused);
    assert.doesNotMatch(refused.body, /No space|extend file/i);
    await admin.query("DROP TRIGGER ks_test_disk_full ON app_passwords");
    const created = await browser.post("/index.php/settings/personal/app-passwords", { requesttoken: token, name: "phone" });
    assert.equal(created.statusCode, 303, "created, then post/redirect/get to the page that shows it");
  });
});

/** Holds the write lock of the test's database from another connection; returns the release. */
async function holdWriteLock(t: TestStorage): Promise<() => Promise<void>> {
  const release = await holdTableLock(t, "activity");
  cleanups.push(release);
  return release;
}

describe("a hung database: bounded waits", () => {
  it("a statement that waits for a lock past the statement timeout answers 503 with Retry-After; once the lock is gone the same request succeeds", async (context) => {
    const t = await testStorage();
    const node = await app(t, { statementMs: 200 });
    const publish = await publisher(node);
    const release = await holdWriteLock(t);
    const outage = probeOnDemand(context);
    const refused = await Promise.all([publish(events(2)), publish(events(2)), publish(events(2))]);
    for (const response of refused) assertUnavailable(response);
    // Three refused requests, one outage, one warning.
    assert.equal(node.log.events("database_unavailable").length, 1);
    await release();
    const accepted = await publish(events(2));
    assert.equal(accepted.statusCode, 201, accepted.body);
    assert.equal(await activityCount(node), 2);
    await eventually("the outage's end was logged", () => {
      outage.probe();
      return node.log.events("database_available").length === 1;
    });
  });
});

/** Fills the disk under the app (see the file comment); returns the function that frees it again. */
async function fillDisk(t: TestStorage, node: OutageApp, publish: (e: unknown[]) => Promise<LightMyRequestResponse>) {
  if (t.databaseUrl) {
    const admin = await adminClient(t);
    await admin.query(`CREATE FUNCTION ks_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.object_name = '/full.txt' THEN
          RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full';
        END IF;
        RETURN NEW;
      END $$`);
    await admin.query(
      "CREATE TRIGGER ks_test_disk_full BEFORE INSERT ON activity FOR EACH ROW EXECUTE FUNCTION ks_test_disk_full()",
    );
    return async () => {
      await admin.query("DROP TRIGGER ks_test_disk_full ON activity");
    };
  }
  const db = node.storage.db;
  const pages = async () => Number((await sql<{ page_count: number }>`PRAGMA page_count`.execute(db)).rows[0]?.page_count);
  await sql`VACUUM`.execute(db);
  // How many pages 500 activities take (one insert chunk): the disk gets room for one and a half,
  // so the request below writes its first chunk and fails in its second.
  const before = await pages();
  assert.equal((await publish(events(500))).statusCode, 201);
  const chunk = (await pages()) - before;
  await sql.raw(`PRAGMA max_page_count = ${(await pages()) + Math.ceil(chunk * 1.5)}`).execute(db);
  return async () => {
    await sql.raw("PRAGMA max_page_count = 1073741823").execute(db);
  };
}

describe("a full disk", () => {
  it("a full disk answers 503 with Retry-After and writes nothing of the request; with space again the same request succeeds", async (context) => {
    const t = await testStorage();
    const node = await app(t);
    const publish = await publisher(node);
    const freeDisk = await fillDisk(t, node, publish);
    const stored = await activityCount(node);
    const outage = probeOnDemand(context);
    // 1000 activities in one transaction (two insert chunks); on PostgreSQL the 701st meets the full disk.
    const batch = events(1000, (i) => (i === 700 ? "/full.txt" : `/file-${i}.txt`));
    for (const response of await Promise.all([publish(batch), publish(batch)])) assertUnavailable(response);
    assert.equal(await activityCount(node), stored, "nothing of the refused batch was written");
    assert.equal(node.log.events("database_unavailable").length, 1);
    assert.match(String(node.log.events("database_unavailable")[0]?.reason), /SQLITE_FULL|53100/);
    await freeDisk();
    const accepted = await publish(batch);
    assert.equal(accepted.statusCode, 201, accepted.body);
    assert.equal(await activityCount(node), stored + 1000);
    await eventually("the outage's end was logged", () => {
      outage.probe();
      return node.log.events("database_available").length === 1;
    });
  });
});

/** A tmpfs of `sizeMb` at a fresh directory (a real disk that fills up), or undefined where mounting is not allowed. */
function mountSmallDisk(sizeMb: number): { dir: string; resize(mb: number): void; unmount(): void } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeMb}m`, "tmpfs", dir], { stdio: "ignore" });
  } catch {
    fs.rmdirSync(dir);
    return undefined;
  }
  return {
    dir,
    resize: (mb) => execFileSync("mount", ["-o", `remount,size=${mb}m`, dir], { stdio: "ignore" }),
    unmount: () => {
      execFileSync("umount", [dir], { stdio: "ignore" });
      fs.rmdirSync(dir);
    },
  };
}

describe("a real full disk under SQLite", {
  skip: testDatabaseDialect === "sqlite" ? false : "SQLite only (its file is on the disk)",
}, () => {
  it("on a real full disk SQLite writes answer 503 with Retry-After and write nothing half, the WAL checkpointer reports the failure once, and both resume when space returns", async (t) => {
    const disk = mountSmallDisk(1);
    if (!disk) {
      t.skip("needs root to mount a 1 MB tmpfs (the max_page_count test above runs everywhere)");
      return;
    }
    cleanups.push(async () => disk.unmount());
    const checkpointErrors: string[] = [];
    let checkpointsRecovered = 0;
    const log = captureLog();
    const storage = openStorage({
      dataDir: disk.dir,
      log,
      probeIntervalMs: 100,
      backgroundCheckpoints: {
        onError: (message) => checkpointErrors.push(message),
        onRecovered: () => {
          checkpointsRecovered++;
        },
        // The 1 MB disk never holds the WAL size the server's worker waits for: started at once.
        startAtWalBytes: 0,
      },
    });
    cleanups.push(() => storage.close());
    await migrateToLatest(storage);
    const node = await createAppOn(storage, disk.dir, new ManualClock());
    cleanups.push(() => node.app.close());
    const publish = await publisher(node);
    let refused: LightMyRequestResponse | undefined;
    let stored = 0;
    for (let i = 0; i < 200 && !refused; i++) {
      const counted = await activityCount({ storage });
      const response = await publish(events(200));
      if (response.statusCode === 201) continue;
      refused = response;
      stored = counted;
    }
    assert.ok(refused, "the disk filled up");
    assertUnavailable(refused);
    assert.equal(await activityCount({ storage }), stored, "nothing of the refused batch was written");
    assert.match(String(log.events("database_unavailable")[0]?.reason), /SQLITE_FULL/);
    // The checkpoint worker runs every 20 ms on its own thread (no clock to advance): let it fail
    // a few times over.
    await eventually("a checkpoint failed", () => checkpointErrors.length > 0);
    await delay(200);
    assert.equal(checkpointErrors.length, 1, "one report for a streak of failed checkpoints");

    disk.resize(16);
    await eventually("writes resume", async () => (await publish(events(200))).statusCode === 201);
    assert.equal(await activityCount({ storage }), stored + 200);
    await eventually("checkpoints resume", () => checkpointsRecovered === 1);
    assert.equal(checkpointErrors.length, 1);
    await eventually("the outage's end was logged", () => log.events("database_available").length === 1);
  });
});

describe("background jobs during an outage", () => {
  it("background jobs meet an unavailable database without an unhandled rejection, and report it as an outage", async () => {
    const t = await testStorage();
    const log = captureLog();
    const down = openStorage({
      databaseUrl: `postgres://keystream@127.0.0.1:${await refusedPort()}/keystream`,
      dataDir: t.dataDir,
      log,
    });
    cleanups.push(() => down.close());
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    cleanups.push(async () => {
      process.off("unhandledRejection", onUnhandled);
    });
    const errors: unknown[] = [];
    const jobLog = { info() {}, error: (fields: object) => errors.push(fields) };
    // A scheduler whose own lease queries fail (the database is away) ...
    const outages = {
      isUnavailable: isDatabaseUnavailable,
      failed: (error: unknown, context: string) => down.availability.failed(error, context),
    };
    const scheduler = new JobScheduler(new SqlJobLeaseStore(down.db), systemClock, jobLog, 600, outages);
    scheduler.register({ name: "test:job", intervalSeconds: () => 1, run: async () => {} });
    scheduler.start(50);
    cleanups.push(() => scheduler.stop());
    await eventually("the scheduler reported the outage", () => log.events("database_unavailable").length === 1);
    // ... and a job whose own work fails on the unavailable database, on a scheduler that works.
    const working = new JobScheduler(new SqlJobLeaseStore(t.storage.db), systemClock, jobLog, 600, outages);
    working.register({
      name: "test:cleanup",
      intervalSeconds: () => 1,
      run: async () => {
        await down.db.deleteFrom("sessions").execute();
      },
    });
    assert.deepEqual(await working.runDueJobs(), []);
    assert.deepEqual(unhandled, []);
    assert.deepEqual(errors, [], "an outage is not logged as a job error with a stack, each time");
    assert.equal(log.events("database_unavailable").length, 1);
    assert.ok(
      isDatabaseUnavailable(
        await down.db
          .selectFrom("sessions")
          .selectAll()
          .execute()
          .catch((e: unknown) => e),
      ),
    );
  });
});
