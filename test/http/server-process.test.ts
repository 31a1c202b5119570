import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { UserDirectory } from "../../src/accounts/users.js";
import { systemClock } from "../../src/clock.js";
import { sha256Hex } from "../../src/crypto/secrets.js";
import { loginUserBucket } from "../../src/security/domain/throttle-policy.js";
import { openStorage } from "../../src/storage/driver/connect.js";
import { SqlSessionStore } from "../../src/storage/stores/accounts/account-session-store.js";
import { SqlUserStore } from "../../src/storage/stores/accounts/account-user-store.js";
import { requestTokenOf } from "../support/browser-form.js";
import { ServerProcess } from "../support/server-process.js";
import { createTestStorage } from "../support/storage.js";

/** The cookie `name` from a fetch response's Set-Cookie headers. */
function cookieOf(response: Response, name: string): string | undefined {
  for (const header of response.headers.getSetCookie()) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(header);
    if (match) return match[1];
  }
  return undefined;
}

async function openConnectionsTo(databaseUrl: string): Promise<number> {
  const admin = new pg.Client({ connectionString: process.env.KEYSTREAM_TEST_DATABASE_URL });
  await admin.connect();
  try {
    const name = new URL(databaseUrl).pathname.slice(1);
    const { rows } = await admin.query("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1", [name]);
    return Number(rows[0].n);
  } finally {
    await admin.end();
  }
}

describe("the server process (node dist/main.js)", () => {
  it("serves status.php on the port it prints, and exits 0 on SIGINT", async () => {
    const storage = await createTestStorage();
    const server = new ServerProcess(storage);
    try {
      const url = await server.url();
      const status = await fetch(`${url}/status.php`);
      assert.equal(status.status, 200);
      assert.equal(((await status.json()) as { installed: boolean }).installed, true);
      // Structured JSON logs (pino writes asynchronously: wait for the line, do not assume its order).
      const listening = (await server.waitFor(/^\{.*"msg":"Keystream listening".*\}$/m))[0];
      assert.equal(JSON.parse(listening).url, url);
      server.child.kill("SIGINT");
      assert.deepEqual(await server.exited, { code: 0, signal: null });
      assert.match(server.stdout, /SIGINT received/);
    } finally {
      server.child.kill("SIGKILL");
      await storage.cleanup();
    }
  });

  it("SIGHUP re-reads config.json and says so; the server keeps serving", async () => {
    const storage = await createTestStorage();
    const server = new ServerProcess(storage);
    try {
      const url = await server.url();
      fs.writeFileSync(path.join(storage.dataDir, "config.json"), `${JSON.stringify({ maintenance: true })}\n`, { mode: 0o600 });
      server.child.kill("SIGHUP");
      const line = (await server.waitFor(/^\{.*"event":"configuration_reread".*\}$/m))[0];
      assert.equal(JSON.parse(line).signal, "SIGHUP");
      assert.equal((await fetch(`${url}/status.php`)).status, 200, "still running");
      assert.equal(((await (await fetch(`${url}/status.php`)).json()) as { maintenance: boolean }).maintenance, true);
      assert.equal(server.child.exitCode, null);
    } finally {
      server.child.kill("SIGKILL");
      await storage.cleanup();
    }
  });

  it("SIGTERM during a slow request: the request completes (with its database writes), then the process closes the database and exits 0", async () => {
    const storage = await createTestStorage();
    const server = { current: undefined as ServerProcess | undefined };
    try {
      // A user whose next login is throttled by 1.6 s (four recent failures in the database):
      // a real request that is still in flight when the signal arrives.
      const db = storage.storage.db;
      await new UserDirectory(new SqlUserStore(db), new SqlSessionStore(db), systemClock).create({
        uid: "slow",
        password: "slow password",
      });
      await storage.storage.db
        .insertInto("throttle")
        .values({ bucket: loginUserBucket("slow").key, failures: 4, last_failure_at: systemClock.nowSeconds() })
        .execute();
      // Only the server holds the database from here on (so what it leaves behind is its own doing).
      await storage.storage.close();

      const s = new ServerProcess(storage);
      server.current = s;
      const url = await s.url();
      const page = await fetch(`${url}/index.php/login`);
      const formCookie = cookieOf(page, "ks_login_form");
      const form = new URLSearchParams({
        user: "slow",
        password: "slow password",
        requesttoken: requestTokenOf(await page.text()),
      });

      const started = Date.now();
      let respondedAt = 0;
      const inFlight = fetch(`${url}/index.php/login`, {
        method: "POST",
        body: form,
        redirect: "manual",
        headers: { cookie: `ks_login_form=${formCookie}`, connection: "close" },
      }).then((response) => {
        respondedAt = Date.now();
        return response;
      });
      // The server logs the throttle's delay as the request starts waiting: signal only once it is inside.
      await s.waitFor(/"event":"throttle_delay","delayMs":1600,"url":"\/index\.php\/login"/);
      s.child.kill("SIGTERM");
      await s.waitFor(/SIGTERM received/);
      const signalledAt = Date.now();
      assert.equal(respondedAt, 0, "the response was still pending when the server got SIGTERM");

      const response = await inFlight;
      assert.equal(response.status, 303, "the in-flight login finished normally");
      assert.ok(Date.now() - started >= 1500, "it really waited out the throttle");
      assert.ok(respondedAt >= signalledAt);
      const session = cookieOf(response, "ks_session");
      assert.ok(session);

      assert.deepEqual(await s.exited, { code: 0, signal: null }, s.stderr);
      assert.match(s.stdout, /"msg":"Keystream stopped"/);

      if (storage.databaseUrl) {
        // Every connection of the server's pool was closed (the backends go away just after).
        let open = await openConnectionsTo(storage.databaseUrl);
        for (let i = 0; i < 50 && open > 0; i++) {
          await delay(100);
          open = await openConnectionsTo(storage.databaseUrl);
        }
        assert.equal(open, 0, "the server left no connection open");
      } else {
        // SQLite removes the WAL and shared-memory files when the last connection closes cleanly;
        // a process that exits without closing leaves them behind.
        const leftovers = fs.readdirSync(storage.dataDir).filter((f) => f.endsWith("-wal") || f.endsWith("-shm"));
        assert.deepEqual(leftovers, [], "the database was closed before exit");
        assert.ok(fs.existsSync(path.join(storage.dataDir, "keystream.sqlite")));
      }
      // The in-flight request's session was written before the database closed.
      const reopened = openStorage({ databaseUrl: storage.databaseUrl, dataDir: storage.dataDir });
      try {
        const row = await reopened.db
          .selectFrom("sessions")
          .select("uid")
          .where("id_hash", "=", sha256Hex(decodeURIComponent(session)))
          .executeTakeFirst();
        assert.equal(row?.uid, "slow");
      } finally {
        await reopened.close();
      }
    } finally {
      server.current?.child.kill("SIGKILL");
      await storage.cleanup();
    }
  });
});
