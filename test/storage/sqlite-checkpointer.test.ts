import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import SqliteDatabase from "better-sqlite3";
import { openStorage } from "../../src/storage/connect.js";
import { migrateToLatest } from "../../src/storage/migrate.js";
import { SqliteCheckpointer } from "../../src/storage/sqlite-checkpointer.js";

function tempFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "keystream-ckpt-")), "db.sqlite");
}

/** A writer that never checkpoints itself: whatever reaches the database file, the worker put there. */
function openWriter(file: string): SqliteDatabase.Database {
  const writer = new SqliteDatabase(file);
  writer.pragma("journal_mode = WAL");
  writer.pragma("synchronous = NORMAL");
  writer.pragma("wal_autocheckpoint = 0");
  writer.exec("create table t (id integer primary key, body text not null)");
  return writer;
}

async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("storage: SQLite WAL checkpoints on a worker thread", () => {
  it("copies the writer's committed frames into the database file while the writer goes on", async () => {
    const file = tempFile();
    const writer = openWriter(file);
    const sizeBefore = fs.statSync(file).size;
    const errors: string[] = [];
    const checkpointer = new SqliteCheckpointer(file, (message) => errors.push(message));
    try {
      const insert = writer.prepare("insert into t (body) values (?)");
      // Many small transactions, interleaved with the worker's checkpoints: none may fail busy.
      for (let batch = 0; batch < 20; batch++) {
        for (let i = 0; i < 50; i++) insert.run("x".repeat(500));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await waitFor(async () => fs.statSync(file).size > sizeBefore + 400_000, "the database file to grow");
      const stats = await checkpointer.stats();
      assert.ok(stats.checkpoints > 0);
      assert.ok(stats.framesCopied >= 100, `frames copied: ${stats.framesCopied}`);
      // Everything committed is now in the file itself: a checkpoint by the writer finds nothing new.
      const [result] = writer.pragma("wal_checkpoint(PASSIVE)") as Array<{ log: number; checkpointed: number }>;
      assert.equal(result?.checkpointed, result?.log);
      assert.equal((writer.prepare("select count(*) as n from t").get() as { n: number }).n, 1000);
      assert.deepEqual(errors, []);
    } finally {
      await checkpointer.stop();
      writer.close();
    }
  });

  it("stops: the worker's connection is closed and later questions are refused", async () => {
    const file = tempFile();
    const writer = openWriter(file);
    const checkpointer = new SqliteCheckpointer(file, () => {});
    await checkpointer.stats();
    await checkpointer.stop();
    await checkpointer.stop(); // twice is harmless
    await assert.rejects(checkpointer.stats(), /stopped/);
    writer.close();
    // The last connection closed: SQLite folded the WAL back in and removed it.
    assert.equal(fs.existsSync(`${file}-wal`), false);
  });

  it("starts its thread only once the WAL has held the given size: a server that writes little never needs it", async () => {
    const file = tempFile();
    const writer = openWriter(file);
    const checkpointer = new SqliteCheckpointer(file, () => {}, undefined, 256 * 1024);
    try {
      // A few small commits: the WAL stays far below the mark.
      const insert = writer.prepare("insert into t (body) values (?)");
      for (let i = 0; i < 5; i++) insert.run("x".repeat(100));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(checkpointer.started, false);
      assert.deepEqual(await checkpointer.stats(), { checkpoints: 0, framesCopied: 0 });
      // Past it, the worker starts within its watch interval and checkpoints what is there.
      for (let i = 0; i < 400; i++) insert.run("x".repeat(1000));
      await waitFor(async () => checkpointer.started, "the worker to start");
      await waitFor(async () => (await checkpointer.stats()).framesCopied > 0, "a checkpoint");
    } finally {
      await checkpointer.stop();
      writer.close();
    }
    await assert.rejects(checkpointer.stats(), /stopped/);
  });

  it("stopped before its thread started, it never starts", async () => {
    const file = tempFile();
    const writer = openWriter(file);
    const checkpointer = new SqliteCheckpointer(file, () => {}, undefined, 1);
    await checkpointer.stop();
    writer.prepare("insert into t (body) values (?)").run("x".repeat(5000));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(checkpointer.started, false);
    await assert.rejects(checkpointer.stats(), /stopped/);
    writer.close();
  });

  it("runs beside the server's storage, which stops it on close; the data is all there on reopening", async () => {
    const dataDir = path.dirname(tempFile());
    const errors: string[] = [];
    const storage = openStorage({
      dataDir,
      backgroundCheckpoints: { onError: (message) => errors.push(message), startAtWalBytes: 0 },
    });
    await migrateToLatest(storage);
    for (let i = 0; i < 200; i++) {
      await storage.db
        .insertInto("users")
        .values({
          uid: `user${i}`,
          display_name: `User ${i}`,
          email: null,
          password_hash: null,
          enabled: 1,
          created_at: 0,
        })
        .execute();
    }
    await storage.close();
    assert.equal(fs.existsSync(path.join(dataDir, "keystream.sqlite-wal")), false, "all connections closed");
    const reopened = openStorage({ dataDir });
    try {
      const row = await reopened.db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.n), 200);
      assert.deepEqual(errors, []);
    } finally {
      await reopened.close();
    }
  });
});
