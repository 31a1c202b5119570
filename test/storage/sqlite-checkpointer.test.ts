import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import SqliteDatabase from "better-sqlite3";
import { openStorage } from "../../src/storage/driver/connect.js";
import { SqliteCheckpointer } from "../../src/storage/driver/sqlite-checkpointer.js";
import { migrateToLatest } from "../../src/storage/lifecycle/migrate.js";
import { eventually } from "../support/eventually.js";

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

/** How often the checkpointer looks at the WAL's size until it starts (sqlite-checkpointer.ts). */
const WAL_WATCH_INTERVAL_MS = 1000;

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
        const { checkpoints } = await checkpointer.stats();
        await eventually("a checkpoint after the batch", async () => (await checkpointer.stats()).checkpoints > checkpoints);
      }
      await eventually("the database file to grow", async () => fs.statSync(file).size > sizeBefore + 400_000);
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

  it("starts its thread only once the WAL has held the given size: a server that writes little never needs it", async (t) => {
    const file = tempFile();
    const writer = openWriter(file);
    // The WAL's size is looked at when the test advances the watch interval.
    t.mock.timers.enable({ apis: ["setInterval"] });
    const checkpointer = new SqliteCheckpointer(file, () => {}, undefined, 256 * 1024);
    try {
      // A few small commits: the WAL stays far below the mark.
      const insert = writer.prepare("insert into t (body) values (?)");
      for (let i = 0; i < 5; i++) insert.run("x".repeat(100));
      t.mock.timers.tick(WAL_WATCH_INTERVAL_MS);
      assert.equal(checkpointer.started, false);
      assert.deepEqual(await checkpointer.stats(), { checkpoints: 0, framesCopied: 0 });
      // Past it, the worker starts at the next look and checkpoints what is there.
      for (let i = 0; i < 400; i++) insert.run("x".repeat(1000));
      t.mock.timers.tick(WAL_WATCH_INTERVAL_MS);
      assert.equal(checkpointer.started, true);
      await eventually("a checkpoint", async () => (await checkpointer.stats()).framesCopied > 0);
    } finally {
      await checkpointer.stop();
      writer.close();
    }
    await assert.rejects(checkpointer.stats(), /stopped/);
  });

  it("stopped before its thread started, it never starts", async (t) => {
    const file = tempFile();
    const writer = openWriter(file);
    // The WAL's size would be looked at when the test advances the watch interval.
    t.mock.timers.enable({ apis: ["setInterval"] });
    const checkpointer = new SqliteCheckpointer(file, () => {}, undefined, 1);
    await checkpointer.stop();
    writer.prepare("insert into t (body) values (?)").run("x".repeat(5000));
    t.mock.timers.tick(WAL_WATCH_INTERVAL_MS);
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
