import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestApp, type TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { basicAuthFor, fileEvent, get, ids, ocsData, publish } from "./support.js";

const API = "/index.php/apps/activity/api/v2/activity";
const OCS_API = "/ocs/v2.php/apps/activity/api/v2/activity";

describe("activity stream API (spec: Endpoints, Errors, Limits)", () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  /** alice's stream ids, in publish order (oldest first). */
  const aliceIds: number[] = [];
  let bobOwn: number;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", displayName: "Alice A" }));
    accepted(await t.services.users.create({ uid: "bob", displayName: "Bob B" }));
    alice = await basicAuthFor(t, "alice");
    bob = await basicAuthFor(t, "bob");
    const now = t.clock.nowSeconds();
    // 12 activities for alice, one per minute, alternating authors and apps (none groupable:
    // each differs from its neighbour in author or subject).
    for (let i = 0; i < 12; i++) {
      const mine = i % 2 === 0;
      const event =
        i % 3 === 2
          ? {
              app: "files_sharing",
              type: "shared",
              affecteduser: "alice",
              user: mine ? "alice" : "bob",
              subject: mine ? "shared_user_self" : "shared_with_by",
              subjectparams: [
                { type: "file", value: `/s${i}`, id: 100 + i },
                { type: "user", value: mine ? "bob" : "bob" },
              ],
              object_type: "files",
              object_id: 100 + i,
              object_name: `/s${i}`,
              datetime: now - 3600 + i * 60,
            }
          : fileEvent("alice", {
              user: mine ? "alice" : "bob",
              subject: mine ? "changed_self" : "changed_by",
              subjectparams: mine
                ? [{ type: "file", value: `/f${i}`, id: i }]
                : [
                    { type: "file", value: `/f${i}`, id: i },
                    { type: "user", value: "bob" },
                  ],
              object_id: i % 4 === 0 ? 42 : i,
              object_name: `/f${i}`,
              datetime: now - 3600 + i * 60,
            });
      aliceIds.push(...(await publish(t, event)));
    }
    bobOwn = (await publish(t, fileEvent("bob")))[0]!;
  });
  after(() => t.close());

  it("answers 403 without a logged-in user", async () => {
    const response = await get(t, API);
    assert.equal(response.statusCode, 403);
  });

  it("answers 404 for an unknown filter, before checking the user", async () => {
    assert.equal((await get(t, `${API}/nonsense`, alice)).statusCode, 404);
    const anonymous = await get(t, `${API}/nonsense`);
    assert.equal(anonymous.statusCode, 404);
    assert.deepEqual(JSON.parse(anonymous.body).ocs, { meta: { status: "failure", statuscode: 404, message: "" }, data: [] });
  });

  it("returns 200 with the OCS envelope and every spec field, newest first", async () => {
    const response = await get(t, API, alice);
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers["content-type"]), /^application\/json/);
    const body = JSON.parse(response.body);
    assert.deepEqual(body.ocs.meta, { status: "ok", statuscode: 200, message: "OK" });
    assert.deepEqual(ids(response), [...aliceIds].reverse());
    const element = body.ocs.data[0];
    for (const field of [
      "activity_id",
      "datetime",
      "app",
      "type",
      "user",
      "affecteduser",
      "subject",
      "subjectparams",
      "subject_prepared",
      "message",
      "messageparams",
      "message_prepared",
      "link",
      "object_type",
      "object_id",
      "object_name",
      "activity_ids",
      "subject_rich",
      "message_rich",
      "objects",
      "icon",
    ]) {
      assert.ok(field in element, `field ${field}`);
    }
    assert.equal(typeof element.activity_id, "number");
    assert.equal(typeof element.object_id, "number");
    assert.match(element.datetime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    assert.equal(element.affecteduser, "alice");
    assert.deepEqual(element.message_rich, ["", []]);
    assert.equal(
      body.ocs.data
        .find((e: any) => e.subject === "changed_by")
        .subject_prepared.startsWith('<user display-name="Bob B">bob</user> changed <file'),
      true,
    );
  });

  it("serves the same stream at the OCS path for today's clients", async () => {
    const response = await get(t, `${OCS_API}/all?format=json`, alice);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(ids(response), [...aliceIds].reverse());
  });

  it("sorts ascending with sort=asc", async () => {
    const response = await get(t, `${API}?sort=asc`, alice);
    assert.deepEqual(ids(response), aliceIds);
  });

  it("filters self, by, files, files_sharing (and security, empty here → 304)", async () => {
    const all = ocsData(await get(t, `${API}?limit=200`, alice));
    const self = ocsData(await get(t, `${API}/self`, alice));
    const by = ocsData(await get(t, `${API}/by`, alice));
    // Narrower filters make more rows neighbours, so compare the grouped members.
    const members = (list: any[]) => list.flatMap((e) => e.activity_ids);
    assert.deepEqual(members(self), members(all.filter((e) => e.user === "alice")));
    assert.ok(self.length < members(self).length, "consecutive own edits of other files are grouped under self");
    assert.deepEqual(members(by), members(all.filter((e) => e.user !== "alice")));
    const files = ocsData(await get(t, `${API}/files`, alice));
    assert.ok(files.length > 0 && files.every((e) => e.app === "files"));
    assert.deepEqual(members(files), members(all.filter((e) => e.app === "files")));
    const sharing = ocsData(await get(t, `${API}/files_sharing`, alice));
    assert.ok(sharing.length > 0 && sharing.every((e) => e.app === "files_sharing"));
    assert.deepEqual(members(sharing), members(all.filter((e) => e.app === "files_sharing")));
    assert.equal((await get(t, `${API}/security`, alice)).statusCode, 304);
  });

  it("filters by object only with object_type and object_id together", async () => {
    const response = await get(t, `${API}/filter?object_type=files&object_id=42`, alice);
    const data = ocsData(response);
    assert.deepEqual(
      data.flatMap((e) => e.activity_ids),
      [aliceIds[4], aliceIds[0]],
    );
    assert.ok(data.every((e) => e.object_type === "files" && e.object_id === 42));
    // One alone is ignored (upstream): the object filter then selects activities without an object.
    assert.equal((await get(t, `${API}/filter?object_id=42`, alice)).statusCode, 304);
    const ignoredOnAll = await get(t, `${API}?object_type=files`, alice);
    assert.equal(ids(ignoredOnAll).length, aliceIds.length);
  });

  it("pages to the end with X-Activity-Last-Given, without skipping or repeating", async () => {
    for (const sort of ["desc", "asc"] as const) {
      const seen: number[] = [];
      let since: string | undefined;
      for (let round = 0; round < 20; round++) {
        const response = await get(t, `${API}?limit=5&sort=${sort}${since ? `&since=${since}` : ""}`, alice);
        if (response.statusCode === 304) break;
        assert.equal(response.statusCode, 200);
        seen.push(...ids(response));
        since = String(response.headers["x-activity-last-given"]);
      }
      assert.deepEqual(seen, sort === "desc" ? [...aliceIds].reverse() : aliceIds, sort);
    }
  });

  it("pages to the end by following Link, absolute on overwrite.cli.url and carrying every parameter", async () => {
    t.services.settings.set("overwrite.cli.url", "https://cloud.example.com/base");
    try {
      const seen: number[] = [];
      let url: string | undefined = `${OCS_API}/all?limit=5&sort=asc&format=json`;
      let pages = 0;
      while (url) {
        const response = await get(t, url, alice);
        assert.equal(response.statusCode, 200);
        seen.push(...ids(response));
        pages++;
        const link = response.headers.link as string | undefined;
        if (!link) break;
        const match =
          /^<(https:\/\/cloud\.example\.com\/base(\/ocs\/v2\.php\/apps\/activity\/api\/v2\/activity\/all\?[^>]+))>; rel="next"$/.exec(
            link,
          );
        assert.ok(match, link);
        assert.equal(
          new URL(match[1]!).search,
          `?since=${response.headers["x-activity-last-given"]}&limit=5&sort=asc&format=json`,
        );
        url = match[2];
      }
      assert.equal(pages, 3);
      assert.deepEqual(seen, aliceIds);
    } finally {
      t.services.settings.delete("overwrite.cli.url");
    }
  });

  it("names the filter `all` in the Link of the default route, and omits Link on the last page", async () => {
    const first = await get(t, `${API}?limit=10`, alice);
    assert.match(
      String(first.headers.link),
      /\/index\.php\/apps\/activity\/api\/v2\/activity\/all\?since=\d+&limit=10&sort=desc>; rel="next"$/,
    );
    const last = await get(t, `${API}?limit=10&since=${first.headers["x-activity-last-given"]}`, alice);
    assert.equal(last.statusCode, 200);
    assert.equal(last.headers.link, undefined);
    assert.equal(ids(last).length, 2);
  });

  it("answers an unknown since from the top with X-Activity-First-Known", async () => {
    const response = await get(t, `${API}?since=999999`, alice);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers["x-activity-first-known"], String(aliceIds.at(-1)));
    assert.deepEqual(ids(response), [...aliceIds].reverse());
    const asc = await get(t, `${API}?since=999999&sort=asc`, alice);
    assert.equal(asc.headers["x-activity-first-known"], String(aliceIds[0]));
    const known = await get(t, `${API}?since=${aliceIds[5]}`, alice);
    assert.equal(known.headers["x-activity-first-known"], undefined);
  });

  it("answers 403 when since is another user's activity", async () => {
    const response = await get(t, `${API}?since=${bobOwn}`, alice);
    assert.equal(response.statusCode, 403);
    assert.deepEqual(JSON.parse(response.body).ocs.data, []);
    assert.equal((await get(t, `${API}?since=${bobOwn}`, bob)).statusCode, 304, "bob's own since is fine (nothing older)");
  });

  it("clamps limit: default 50, at most 200", async () => {
    accepted(await t.services.users.create({ uid: "many" }));
    const many = await basicAuthFor(t, "many");
    const events = Array.from({ length: 230 }, (_, i) =>
      fileEvent("many", { subjectparams: [{ type: "parameter", value: `p${i}` }], subject: "note {0}", app: `a${i % 2}` }),
    );
    await publish(t, events);
    assert.equal(ids(await get(t, API, many)).length, 50);
    const big = await get(t, `${API}?limit=1000`, many);
    assert.equal(ids(big).length, 200);
    assert.match(String(big.headers.link), /limit=200/);
    assert.equal(ids(await get(t, `${API}?limit=0`, many)).length, 1);
    // All 230 share one timestamp: the id half of the keyset pair alone decides, nothing is lost.
    const seen = new Set<number>();
    let since = "";
    for (let round = 0; round < 5; round++) {
      const response = await get(t, `${API}?limit=100${since}`, many);
      if (response.statusCode === 304) break;
      for (const id of ocsData(response).flatMap((e) => e.activity_ids)) seen.add(id);
      since = `&since=${response.headers["x-activity-last-given"]}`;
    }
    assert.equal(seen.size, 230);
  });

  it("sends an ETag on every list response and 304 on a matching If-None-Match", async () => {
    const first = await get(t, `${API}?limit=3`, alice);
    const etag = String(first.headers.etag);
    assert.match(etag, /^[0-9a-f]{32}$/);
    const again = await get(t, `${API}?limit=3`, alice, { "if-none-match": etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, "");
    assert.equal(again.headers.etag, etag);
    assert.equal(again.headers["x-activity-last-given"], first.headers["x-activity-last-given"], "headers still sent");
    const other = await get(t, `${API}?limit=4`, alice, { "if-none-match": etag });
    assert.equal(other.statusCode, 200);
  });

  it("answers 304 with an empty body when nothing is newer", async () => {
    const response = await get(t, `${API}?since=${aliceIds.at(-1)}&sort=asc`, alice);
    assert.equal(response.statusCode, 304);
    assert.equal(response.body, "");
    assert.equal(response.headers.etag, "d751713988987e9331980363e24189ce");
    assert.equal(response.headers["x-activity-last-given"], undefined);
  });

  it("gives the XML form with format=xml", async () => {
    const response = await get(t, `${API}?limit=1&format=xml`, alice);
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers["content-type"]), /^application\/xml/);
    assert.match(
      response.body,
      /^<\?xml version="1\.0"\?>\n<ocs><meta><status>ok<\/status><statuscode>200<\/statuscode><message>OK<\/message><\/meta><data><element><activity_id>\d+<\/activity_id>/,
    );
    assert.match(response.body, /<subject_prepared>.*&#60;file link=/, "markup is escaped inside XML");
    assert.match(String(response.headers.link ?? ""), /format=xml/);
  });

  it("lists the filters with absolute icons, by priority", async () => {
    const response = await get(t, `${OCS_API}/filters?format=json`, alice);
    assert.equal(response.statusCode, 200);
    const data = ocsData(response);
    assert.deepEqual(
      data.map((f) => f.id),
      ["all", "self", "by", "files", "files_sharing", "security"],
    );
    assert.match(data[0].icon, /^http:\/\/localhost(:\d+)?\/index\.php\/apps\/activity\/img\/activity\.svg$/);
    assert.equal((await get(t, `${API}/filters`)).statusCode, 403);
  });

  it("keeps a row published later with an older timestamp in its place (pair keyset)", async () => {
    accepted(await t.services.users.create({ uid: "late" }));
    const late = await basicAuthFor(t, "late");
    const now = t.clock.nowSeconds();
    const [a, b] = await publish(t, [
      fileEvent("late", { datetime: now - 10 }),
      fileEvent("late", { datetime: now - 5, subject: "x" }),
    ]);
    const [c] = await publish(t, fileEvent("late", { datetime: now - 20, subject: "y" }));
    const page1 = await get(t, `${API}?limit=1`, late);
    const page2 = await get(t, `${API}?limit=1&since=${page1.headers["x-activity-last-given"]}`, late);
    const page3 = await get(t, `${API}?limit=1&since=${page2.headers["x-activity-last-given"]}`, late);
    assert.deepEqual([...ids(page1), ...ids(page2), ...ids(page3)], [b, a, c]);
  });
});
