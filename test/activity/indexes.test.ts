import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CompiledQuery, sql } from "kysely";
import { boundAfter, type SortOrder } from "../../src/activity/domain/cursor.js";
import { findFilter } from "../../src/activity/domain/filters.js";
import { SqlActivityStore } from "../../src/storage/stores/activity/activity-store.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

/**
 * Every filter in both sort orders is a range scan of one index, with no temporary B-tree for
 * ORDER BY (SQLite's plan; PostgreSQL's planner depends on table statistics, so this runs on SQLite).
 */
describe("stream queries use keyset range scans (EXPLAIN QUERY PLAN)", {
  skip: process.env.KEYSTREAM_TEST_DATABASE_URL ? "SQLite plan check" : false,
}, () => {
  let s: TestStorage;
  before(async () => {
    s = await createTestStorage();
    await s.storage.db
      .insertInto("users")
      .values({ uid: "u", display_name: "u", email: null, password_hash: null, enabled: 1, created_at: 0 })
      .execute();
    await sql`ANALYZE`.execute(s.storage.db);
  });
  after(() => s.cleanup());

  const expected: Record<string, string> = {
    all: "activity_user_time",
    self: "activity_user_self",
    by: "activity_user_self",
    files: "activity_user_category",
    files_sharing: "activity_user_category",
    security: "activity_user_category",
    filter: "activity_user_object",
  };

  for (const [filterId, index] of Object.entries(expected)) {
    for (const sort of ["desc", "asc"] as SortOrder[]) {
      it(`${filterId} ${sort} → ${index}, no sort step`, async () => {
        const store = new SqlActivityStore(s.storage.db);
        const query = store
          .pageQuery({
            uid: "u",
            selection: findFilter(filterId)!.select({ objectType: "files", objectId: 3 }),
            bound: boundAfter({ timestamp: 100, activityId: 50 }, sort),
            sort,
            hiddenTypes: ["shared"],
            fetch: 51,
          })
          .compile();
        const plan = await s.storage.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
        );
        const details = plan.rows.map((r) => r.detail).join(" | ");
        // SQLite prints the (timestamp, activity_id) row-value range by its first column.
        assert.match(
          details,
          new RegExp(
            `^SEARCH activity USING INDEX ${index} \\(affecteduser=\\?.* AND timestamp${sort === "desc" ? "<" : ">"}\\?\\)$`,
          ),
          details,
        );
        assert.doesNotMatch(details, /TEMP B-TREE/, details);
      });
    }
  }
});

/**
 * PostgreSQL: a user whose activities are all older than everybody else's (the shape that made
 * the planner walk a B-tree on timestamp backwards, filtering every newer row of every other user).
 * The first page of `all` must come from the per-user index, reading only the rows it returns.
 */
describe("PostgreSQL: a user's first page uses the per-user index, whatever the others' rows", {
  skip: process.env.KEYSTREAM_TEST_DATABASE_URL ? false : "PostgreSQL plan check (runs with KEYSTREAM_TEST_DATABASE_URL)",
}, () => {
  let s: TestStorage;
  before(async () => {
    s = await createTestStorage();
    const db = s.storage.db;
    await sql`INSERT INTO users (uid, display_name, enabled, created_at)
      SELECT 'u' || g, 'u' || g, 1, 0 FROM generate_series(0, 99) g`.execute(db);
    await sql`INSERT INTO activity (timestamp, app, type, "user", affecteduser, is_self, category, subject, subjectparams, messageparams)
      SELECT 1000000 + g, 'files', 'file_changed', 'u0', 'u0', 1, 'files', 'changed_self', '[]', '[]' FROM generate_series(1, 10000) g`.execute(
      db,
    );
    await sql`INSERT INTO activity (timestamp, app, type, "user", affecteduser, is_self, category, subject, subjectparams, messageparams)
      SELECT 2000000 + g, 'files', 'file_changed', 'u' || (1 + g % 99), 'u' || (1 + g % 99), 1, 'files', 'changed_self', '[]', '[]'
      FROM generate_series(1, 90000) g`.execute(db);
    await sql`ANALYZE activity`.execute(db);
  });
  after(() => s.cleanup());

  it("all desc, no since → Index Scan Backward using activity_user_time, nothing filtered", async () => {
    const store = new SqlActivityStore(s.storage.db);
    const query = store
      .pageQuery({
        uid: "u0",
        selection: findFilter("all")!.select({ objectType: undefined, objectId: undefined }),
        bound: undefined,
        sort: "desc",
        hiddenTypes: [],
        fetch: 51,
      })
      .compile();
    const plan = await s.storage.db.executeQuery<{ "QUERY PLAN": string }>(
      CompiledQuery.raw(`EXPLAIN (ANALYZE, COSTS OFF) ${query.sql}`, [...query.parameters]),
    );
    const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
    assert.match(text, /Index Scan Backward using activity_user_time on activity/, text);
    assert.doesNotMatch(text, /Rows Removed by Filter/, text);
  });
});
