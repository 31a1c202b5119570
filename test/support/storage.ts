import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import { migrateToLatest } from "../../src/storage/lifecycle/migrate.js";

/**
 * Real storage for a test: a temporary SQLite file, or, when KEYSTREAM_TEST_DATABASE_URL names a
 * PostgreSQL server (as .ci/run sets it for the second run), a fresh database created for this
 * test and dropped afterwards. Never an in-memory stand-in.
 */
export interface TestStorage {
  storage: Storage;
  dataDir: string;
  /** What a child process (./occ, a second node) needs to reach the same database. */
  databaseUrl: string | undefined;
  cleanup(): Promise<void>;
}

export const testDatabaseDialect = process.env.KEYSTREAM_TEST_DATABASE_URL ? "postgres" : "sqlite";

export async function createTestStorage(options: { migrate?: boolean } = {}): Promise<TestStorage> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-test-"));
  const adminUrl = process.env.KEYSTREAM_TEST_DATABASE_URL;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (adminUrl) {
    const name = `ks_test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      // pg's Pool.end() resolves before its connections have finished closing; a forced drop
      // would then kill one mid-close and its 'error' would land in whichever test runs next.
      // So wait (bounded) for the test's own connections to go, then force out any stragglers.
      for (let i = 0; i < 50; i++) {
        const { rows } = await client.query("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1", [name]);
        if (Number(rows[0].n) === 0) break;
        await delay(100);
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    };
  }
  const storage = openStorage({ databaseUrl, dataDir });
  if (options.migrate !== false) await migrateToLatest(storage);
  return {
    storage,
    dataDir,
    databaseUrl,
    async cleanup() {
      await storage.close();
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
