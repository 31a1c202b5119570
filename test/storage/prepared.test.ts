import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import type { Db, DbOrTx } from "../../src/storage/driver/database.js";
import { PreparedQuery, transaction } from "../../src/storage/driver/prepared.js";
import { createTestStorage, type TestStorage, testDatabaseDialect } from "../support/storage.js";

describe("PreparedQuery (a statement compiled once, values bound per call)", () => {
  let t: TestStorage;
  const throttleRow = (bucket: string, failures: number) => ({ bucket, failures, last_failure_at: 1000 + failures });

  before(async () => {
    t = await createTestStorage();
    await t.storage.db
      .insertInto("throttle")
      .values([throttleRow("a", 1), throttleRow("b", 2), throttleRow("c", 3)])
      .execute();
  });
  after(() => t.cleanup());

  const failuresAbove = () =>
    new PreparedQuery<{ bucket: string; min: number }, { bucket: string; failures: number }>((slot) =>
      t.storage.db
        .selectFrom("throttle")
        .select(["bucket", "failures"])
        .where("bucket", "=", slot("bucket"))
        .where("failures", ">=", slot("min"))
        // A value fixed when the statement is built stays as it was.
        .where("last_failure_at", ">", 1000),
    );

  it("binds each call's values in the places of their slots", async () => {
    const query = failuresAbove();
    assert.deepEqual(await query.first(t.storage.db, { bucket: "b", min: 1 }), { bucket: "b", failures: 2 });
    assert.deepEqual(await query.first(t.storage.db, { bucket: "c", min: 3 }), { bucket: "c", failures: 3 });
    assert.equal(await query.first(t.storage.db, { bucket: "c", min: 4 }), undefined);
    assert.equal(await query.first(t.storage.db, { bucket: "nope", min: 0 }), undefined);
  });

  it("compiles to the same SQL as the query built directly", () => {
    const built = t.storage.db
      .selectFrom("throttle")
      .select(["bucket", "failures"])
      .where("bucket", "=", "x")
      .where("failures", ">=", 1)
      .where("last_failure_at", ">", 1000)
      .compile();
    const prepared = failuresAbove() as unknown as { compiled: { sql: string; parameters: unknown[] } };
    assert.equal(prepared.compiled.sql, built.sql);
  });

  const bump = () =>
    new PreparedQuery<{ bucket: string }, unknown>((slot) =>
      t.storage.db
        .updateTable("throttle")
        .set((eb) => ({ failures: eb("failures", "+", 1) }))
        .where("bucket", "=", slot("bucket")),
    );
  const failuresOf = async (bucket: string) =>
    (await t.storage.db.selectFrom("throttle").select("failures").where("bucket", "=", bucket).executeTakeFirst())?.failures;

  type Runner = <T>(db: Db, work: (trx: DbOrTx) => Promise<T>) => Promise<T>;
  const runners: Array<[string, Runner]> = [
    ["Kysely's transaction", (db, work) => db.transaction().execute(work)],
    ["transaction() (on SQLite: on the handle)", transaction],
  ];
  for (const [name, run] of runners) {
    it(`${name}: writes inside it, built or prepared, commit with it and roll back with it`, async () => {
      const query = bump();
      const before = (await failuresOf("a")) as number;
      await run(t.storage.db, async (trx) => {
        assert.equal(await query.affected(trx, { bucket: "a" }), 1);
        await trx.updateTable("throttle").set({ last_failure_at: 5000 }).where("bucket", "=", "a").execute();
      });
      assert.equal(await failuresOf("a"), before + 1, "committed");
      await assert.rejects(
        run(t.storage.db, async (trx) => {
          assert.equal(await query.affected(trx, { bucket: "a" }), 1);
          await trx.updateTable("throttle").set({ last_failure_at: 6000 }).where("bucket", "=", "a").execute();
          throw new Error("abort");
        }),
        /abort/,
      );
      const row = await t.storage.db.selectFrom("throttle").selectAll().where("bucket", "=", "a").executeTakeFirst();
      assert.equal(row?.failures, before + 1, "the prepared write inside the aborted transaction is gone");
      assert.equal(row?.last_failure_at, 5000, "so is the built one");
      assert.equal(await query.affected(t.storage.db, { bucket: "nope" }), 0);
    });

    it(`${name}: a statement on the database waits for it instead of reading inside it`, async () => {
      const query = failuresAbove();
      let written!: () => void;
      let release!: () => void;
      const didWrite = new Promise<void>((resolve) => {
        written = resolve;
      });
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const open = run(t.storage.db, async (trx) => {
        await trx.updateTable("throttle").set({ failures: 99 }).where("bucket", "=", "b").execute();
        written();
        await gate;
        throw new Error("rolled back");
      });
      await didWrite;
      const during = query.first(t.storage.db, { bucket: "b", min: 0 });
      release();
      await assert.rejects(open, /rolled back/);
      assert.deepEqual(await during, { bucket: "b", failures: 2 }, "the uncommitted write was never seen");
    });

    it(`${name}: on SQLite, two at once do not interleave (read, await, write)`, {
      // PostgreSQL runs them side by side at READ COMMITTED; the stores' writes there rely on
      // compare-and-set statements, not on this.
      skip: testDatabaseDialect !== "sqlite" && "SQLite only",
    }, async () => {
      const bucket = `serial ${name}`;
      await t.storage.db.insertInto("throttle").values(throttleRow(bucket, 0)).execute();
      const increment = () =>
        run(t.storage.db, async (trx) => {
          const row = await trx.selectFrom("throttle").select("failures").where("bucket", "=", bucket).executeTakeFirstOrThrow();
          // A pause between the read and the write (the behaviour under test): the other
          // increments would read the same row here if the transactions interleaved.
          await new Promise((resolve) => setTimeout(resolve, 5));
          await trx
            .updateTable("throttle")
            .set({ failures: row.failures + 1 })
            .where("bucket", "=", bucket)
            .execute();
        });
      await Promise.all([increment(), increment(), increment()]);
      assert.equal(await failuresOf(bucket), 3);
    });
  }

  it("on PostgreSQL the statement stays prepared on the connection (parsed and planned once)", {
    skip: testDatabaseDialect !== "postgres" && "PostgreSQL only",
  }, async () => {
    const query = failuresAbove();
    const compiledSql = (query as unknown as { compiled: { sql: string } }).compiled.sql;
    await t.storage.db.connection().execute(async (connection) => {
      assert.deepEqual(await query.first(connection, { bucket: "c", min: 1 }), { bucket: "c", failures: 3 });
      const { rows } = await sql<{
        statement: string;
      }>`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'ks_prepared_%'`.execute(connection);
      assert.ok(
        rows.some((r) => r.statement === compiledSql),
        "the statement is among the connection's prepared statements",
      );
      // A query that is not a PreparedQuery's is not kept.
      await connection.selectFrom("throttle").select("bucket").where("bucket", "=", "a").execute();
      const after = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`.execute(connection);
      assert.equal(after.rows[0]?.n, rows.length);
    });
  });
});
