import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CompiledQuery } from "kysely";
import { boundAfter, type SortOrder } from "../../src/activity/domain/cursor.js";
import { elementJson } from "../../src/activity/domain/element.js";
import { FILTERS } from "../../src/activity/domain/filters.js";
import { decodeRow, groupActivities } from "../../src/activity/domain/grouping.js";
import type { RenderContext } from "../../src/activity/domain/prepared-text.js";
import { ElementJsonCache } from "../../src/activity/page-cache.js";
import { SqlActivityStore } from "../../src/storage/stores/activity/activity-store.js";
import { createAppOn, createTestApp, type TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { basicAuthFor, fileEvent, get, ids, ocsData, publish } from "./support.js";

/**
 * The activity page's caches (issue 17): stored rows read once per process, elements rendered to
 * JSON once. What they may never do: serve a row the database no longer holds, a name that
 * changed, or a rendering made for another base URL or language; on any node.
 */
const API = "/ocs/v2.php/apps/activity/api/v2/activity";

describe("activity page caches", () => {
  let t: TestApp;
  let other: Awaited<ReturnType<typeof createAppOn>>;
  let erin: string;

  before(async () => {
    t = await createTestApp();
    other = await createAppOn(t.testStorage.storage, t.testStorage.dataDir, t.clock);
    accepted(await t.services.users.create({ uid: "erin", displayName: "Erin E" }));
    accepted(await t.services.users.create({ uid: "frank", displayName: "Frank F" }));
    erin = await basicAuthFor(t, "erin");
  });
  after(async () => {
    await other.app.close();
    await t.close();
  });

  it("a renamed author shows under the new name on the next page, on every node, though the element was cached", async () => {
    await publish(
      t,
      fileEvent("erin", {
        user: "frank",
        subject: "changed_by",
        subjectparams: [
          { type: "file", value: "/renamed.txt", id: 7 },
          { type: "user", value: "frank" },
        ],
      }),
    );
    const first = ocsData(await get(t, API, erin))[0];
    assert.equal(first.subject_rich[1].user.name, "Frank F");
    assert.match(first.subject_prepared, /display-name="Frank F"/);
    accepted(await other.services.users.updateProfile("frank", { displayName: "Frank Renamed" }));
    const again = ocsData(await get(t, API, erin))[0];
    assert.equal(again.subject_rich[1].user.name, "Frank Renamed");
    assert.match(again.subject_prepared, /display-name="Frank Renamed"/);
  });

  it("an activity deleted on another node is never served from the cache", async () => {
    const now = t.clock.nowSeconds();
    const [old] = await publish(t, fileEvent("erin", { datetime: now - 30 * 86_400, object_name: "/old.txt" }));
    assert.ok(ids(await get(t, `${API}?sort=asc`, erin)).includes(old!), "cached by this page");
    t.services.settings.set("activity_expire_days", 10);
    other.services.settings.set("activity_expire_days", 10);
    assert.equal(await other.services.activity.expire(), 1);
    const after = await get(t, `${API}?sort=asc`, erin);
    assert.ok(!ids(after).includes(old!));
    assert.equal(after.headers["x-activity-first-known"], String(ids(after)[0]));
  });

  it("a cached element is rendered for the base URL each request names", async () => {
    await publish(t, fileEvent("erin", { object_name: "/hosts.txt" }));
    const a = ocsData(await get(t, API, erin, { host: "a.example" }))[0];
    const b = ocsData(await get(t, API, erin, { host: "b.example" }))[0];
    assert.equal(a.icon, "http://a.example/index.php/apps/activity/img/change.svg");
    assert.equal(b.icon, "http://b.example/index.php/apps/activity/img/change.svg");
    assert.match(b.subject_rich[1].file.link, /^http:\/\/b\.example\//);
  });

  it("X-Activity-First-Known names the newest activity across every filter, also when the page's filter or hidden types leave it out", async () => {
    accepted(await t.services.users.create({ uid: "gina" }));
    const gina = await basicAuthFor(t, "gina");
    const [own] = await publish(t, fileEvent("gina"));
    const [share] = await publish(
      t,
      fileEvent("gina", { user: "frank", app: "files_sharing", type: "shared", subject: "shared_with_by" }),
    );
    const self = await get(t, `${API}/self`, gina);
    assert.deepEqual(ids(self), [own]);
    assert.equal(self.headers["x-activity-first-known"], String(share));
    const put = await t.app.inject({
      method: "PUT",
      url: "/index.php/apps/activity/api/v2/settings",
      headers: { authorization: gina, "content-type": "application/json" },
      payload: { stream: { shared: false } },
    });
    assert.equal(put.statusCode, 200);
    const all = await get(t, API, gina);
    assert.deepEqual(ids(all), [own]);
    assert.equal(all.headers["x-activity-first-known"], String(share));
  });

  it("a page read from the row cache holds the same rows as one read whole from the database, for every filter, bound, sort and hidden type", async () => {
    accepted(await t.services.users.create({ uid: "hank" }));
    const now = t.clock.nowSeconds();
    const events = Array.from({ length: 30 }, (_, i) =>
      fileEvent("hank", {
        user: i % 3 === 0 ? "hank" : "frank",
        app: i % 4 === 0 ? "files_sharing" : "files",
        type: i % 4 === 0 ? "shared" : "file_changed",
        subject: i % 4 === 0 ? "shared_with_by" : "changed_self",
        object_id: i % 5,
        datetime: now - 1000 + Math.floor(i / 2),
      }),
    );
    const published = await publish(t, events);
    const cold = new SqlActivityStore(t.testStorage.storage.db);
    const warm = new SqlActivityStore(t.testStorage.storage.db);
    const middle = await warm.findPosition(published[15]!);
    for (const filter of FILTERS) {
      for (const sort of ["desc", "asc"] as SortOrder[]) {
        for (const bound of [undefined, boundAfter({ timestamp: middle!.timestamp, activityId: middle!.activity_id }, sort)]) {
          for (const hiddenTypes of [[], ["shared"], ["shared", "file_created"]]) {
            const query = {
              uid: "hank",
              selection: filter.select({ objectType: "files", objectId: 3 }),
              bound,
              sort,
              hiddenTypes,
              fetch: 7,
            };
            const whole = await cold.pageQuery(query).execute();
            const where = `${filter.id} ${sort} ${bound ? "bound" : "top"} hidden=${hiddenTypes.join(",")}`;
            assert.deepEqual(await warm.page(query), whole, `${where}, first read`);
            assert.deepEqual(await warm.page(query), whole, `${where}, from the cache`);
          }
        }
      }
    }
  });

  it("a page's keys are read by a range scan of the filter's index, from the index alone when no type is hidden", async () => {
    const store = new SqlActivityStore(t.testStorage.storage.db);
    for (const [filter, index] of [
      ["all", "activity_user_time"],
      ["self", "activity_user_self"],
      ["files", "activity_user_category"],
      ["filter", "activity_user_object"],
    ] as const) {
      const query = store
        .pageKeysQuery({
          uid: "erin",
          selection: FILTERS.find((f) => f.id === filter)!.select({ objectType: "files", objectId: 3 }),
          bound: boundAfter({ timestamp: 100, activityId: 50 }, "desc"),
          sort: "desc",
          hiddenTypes: [],
          fetch: 51,
        })
        .compile();
      const plan = await t.testStorage.storage.db.executeQuery<Record<string, string>>(
        CompiledQuery.raw(`EXPLAIN ${t.testStorage.storage.dialect === "sqlite" ? "QUERY PLAN " : ""}${query.sql}`, [
          ...query.parameters,
        ]),
      );
      const text = plan.rows.map((r) => r.detail ?? r["QUERY PLAN"]).join("\n");
      if (t.testStorage.storage.dialect === "sqlite") {
        assert.match(text, new RegExp(`^SEARCH activity USING COVERING INDEX ${index} `), `${filter}: ${text}`);
      } else {
        assert.match(text, new RegExp(`using ${index} on activity`), `${filter}: ${text}`);
      }
    }
  });

  it("the element cache keys on the language the element is rendered in", () => {
    const row = {
      activity_id: 1,
      timestamp: 1_790_000_000,
      app: "files",
      type: "file_changed",
      user: "frank",
      affecteduser: "erin",
      is_self: 0,
      category: "files",
      subject: "changed_by",
      subjectparams: JSON.stringify([
        { type: "file", value: "/a.txt", id: 1 },
        { type: "user", value: "frank" },
      ]),
      message: "",
      messageparams: "[]",
      link: "",
      object_type: "files",
      object_id: 1,
      object_name: "/a.txt",
    };
    const [group] = groupActivities([decodeRow(row)]);
    const context = (language: string | undefined, name = "Frank"): RenderContext => ({
      baseUrl: "https://cloud.example",
      language,
      displayName: () => name,
    });
    // A rendering that depends on the language, as issue 19's translations will.
    const cache = new ElementJsonCache((g, c) => `${c.language ?? "en"}: ${elementJson(g, c)}`);
    assert.match(cache.json(group!, context(undefined)).bytes.toString(), /^en: /);
    assert.match(cache.json(group!, context("de")).bytes.toString(), /^de: /);
    assert.match(cache.json(group!, context(undefined)).bytes.toString(), /^en: /);
    assert.match(cache.json(group!, context("de", "Frank Neu")).bytes.toString(), /^de: .*Frank Neu/);
  });
});
