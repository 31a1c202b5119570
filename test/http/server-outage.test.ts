import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import pg from "pg";
import { AppPasswords } from "../../src/accounts/app-passwords.js";
import { UserDirectory } from "../../src/accounts/users.js";
import { systemClock } from "../../src/clock.js";
import { SqlAppPasswordStore } from "../../src/storage/stores/accounts/account-app-password-store.js";
import { SqlSessionStore } from "../../src/storage/stores/accounts/account-session-store.js";
import { SqlUserStore } from "../../src/storage/stores/accounts/account-user-store.js";
import { eventually } from "../support/eventually.js";
import { hungServer } from "../support/outage.js";
import { accepted } from "../support/results.js";
import { ServerProcess } from "../support/server-process.js";
import { createTestStorage, testDatabaseDialect } from "../support/storage.js";

/**
 * Database faults through the real server process (node dist/main.js): PostgreSQL dropping the
 * pool's connections does not end the process, and start-up against a database that never answers
 * gives up after its bound with a message naming the database.
 */
describe("the server process during database faults", () => {
  it("start-up against a database that never answers retries with a log line, then exits 1 naming the database without its password", {
    timeout: 30_000,
  }, async () => {
    const hung = await hungServer();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-test-"));
    const server = new ServerProcess(
      { dataDir, databaseUrl: `postgres://keystream:secret-password@127.0.0.1:${hung.port}/keystream_hung` },
      "server",
      { KEYSTREAM_DB_CONNECT_TIMEOUT_MS: "200", KEYSTREAM_DB_STARTUP_TIMEOUT_MS: "1500" },
    );
    try {
      const exit = await server.exited;
      assert.deepEqual(exit, { code: 1, signal: null });
      assert.match(
        server.stderr,
        new RegExp(`Keystream failed to start: database postgres://127\\.0\\.0\\.1:${hung.port}/keystream_hung unavailable`),
      );
      assert.doesNotMatch(server.stderr + server.stdout, /secret-password/);
      assert.doesNotMatch(server.stderr, /migration \(unknown\)/);
      const retries = server.logLines("database not available yet: retrying");
      assert.ok(retries.length >= 1, server.stdout);
      assert.equal(retries[0]?.database, `postgres://127.0.0.1:${hung.port}/keystream_hung`);
    } finally {
      server.child.kill("SIGKILL");
      await hung.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("the server process survives PostgreSQL terminating its connections, and serves again without a restart", {
    skip: testDatabaseDialect === "postgres" ? false : "PostgreSQL only (SQLite has no connection to lose)",
  }, async () => {
    const storage = await createTestStorage();
    const db = storage.storage.db;
    accepted(
      await new UserDirectory(new SqlUserStore(db), new SqlSessionStore(db), systemClock).create({
        uid: "alice",
        password: "alice password",
      }),
    );
    const { secret } = accepted(await new AppPasswords(new SqlAppPasswordStore(db), systemClock).create("alice", "outage"));
    // Only the server holds the database from here on.
    await storage.storage.close();
    const server = new ServerProcess(storage);
    const admin = new pg.Client({ connectionString: storage.databaseUrl });
    admin.on("error", () => undefined);
    try {
      const url = await server.url();
      const whoAmI = () =>
        fetch(`${url}/ocs/v2.php/cloud/user?format=json`, {
          headers: { authorization: `Basic ${Buffer.from(`alice:${secret}`).toString("base64")}` },
        });
      // Several requests at once, so that the pool holds several connections.
      for (const response of await Promise.all([whoAmI(), whoAmI(), whoAmI()])) assert.equal(response.status, 200);

      await admin.connect();
      const { rowCount } = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
      );
      assert.ok((rowCount ?? 0) >= 1);

      // The process logs the lost connections once, stays up, and answers again (a request in
      // between may draw a connection whose termination has not arrived: 503, never a 500).
      await server.waitFor(/"event":"database_unavailable"/);
      await eventually("the server answers again", async () => {
        assert.equal(server.child.exitCode, null, `the server exited\n${server.stderr}`);
        const response = await whoAmI();
        if (response.status !== 200) {
          assert.equal(response.status, 503);
          assert.ok(Number(response.headers.get("retry-after")) > 0);
        }
        return response.status === 200;
      });
      await server.waitFor(/"msg":"database available again"/);
      assert.equal(server.logLines("database unavailable: answering 503 with Retry-After until it answers again").length, 1);
      assert.doesNotMatch(server.stdout + server.stderr, /"level":50|uncaught/i, "no error with a stack was logged");
      assert.deepEqual(await server.stop(), { code: 0, signal: null });
    } finally {
      server.child.kill("SIGKILL");
      await admin.end().catch(() => undefined);
      await storage.cleanup();
    }
  });
});
