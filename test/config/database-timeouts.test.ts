import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sql } from "kysely";
import { readEnvironment } from "../../src/config/environment.js";
import { openStorage } from "../../src/storage/driver/connect.js";
import { createTestStorage, testDatabaseDialect } from "../support/storage.js";

/** issue 16: the database timeouts come from the environment and reach the connections. */
describe("database timeouts", () => {
  it("KEYSTREAM_DB_*_TIMEOUT_MS are read as milliseconds, unset means the storage's defaults", () => {
    assert.deepEqual(readEnvironment({}).database, {
      connectTimeoutMs: undefined,
      statementTimeoutMs: undefined,
      startupTimeoutMs: undefined,
    });
    assert.deepEqual(
      readEnvironment({
        KEYSTREAM_DB_CONNECT_TIMEOUT_MS: "2000",
        KEYSTREAM_DB_STATEMENT_TIMEOUT_MS: "750",
        KEYSTREAM_DB_STARTUP_TIMEOUT_MS: "60000",
      }).database,
      { connectTimeoutMs: 2000, statementTimeoutMs: 750, startupTimeoutMs: 60_000 },
    );
  });

  it("a malformed database timeout refuses to start, naming the variable", () => {
    for (const value of ["0", "-5", "1.5", "5s", "86400001"]) {
      assert.throws(
        () => readEnvironment({ KEYSTREAM_DB_STATEMENT_TIMEOUT_MS: value }),
        /KEYSTREAM_DB_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds/,
      );
    }
  });

  it("the statement timeout bounds every connection: PostgreSQL statement_timeout, SQLite busy_timeout", async () => {
    const t = await createTestStorage();
    const storage = openStorage({ databaseUrl: t.databaseUrl, dataDir: t.dataDir, timeouts: { statementMs: 750 } });
    try {
      if (testDatabaseDialect === "postgres") {
        const { rows } = await sql<{ statement_timeout: string }>`SHOW statement_timeout`.execute(storage.db);
        assert.equal(rows[0]?.statement_timeout, "750ms");
        // Migrations run without it (they may rebuild a large table), and the connection gets it back.
        const during = await storage.withoutStatementTimeout(
          async (db) => (await sql<{ statement_timeout: string }>`SHOW statement_timeout`.execute(db)).rows[0]?.statement_timeout,
        );
        assert.equal(during, "0");
        const { rows: after } = await sql<{ statement_timeout: string }>`SHOW statement_timeout`.execute(storage.db);
        assert.equal(after[0]?.statement_timeout, "750ms");
      } else {
        const { rows } = await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(storage.db);
        assert.equal(rows[0]?.timeout, 750);
      }
    } finally {
      await storage.close();
      await t.cleanup();
    }
  });
});
