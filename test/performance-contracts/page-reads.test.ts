import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { basicAuthFor, fileEvent, get, ids, ocsData, publish } from "../activity/support.js";
import { createOAuthTestApp, exchangeCode, issueCode } from "../oauth/support.js";
import { createAppOn, type TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { statementsOf } from "../support/statements.js";
import { testDatabaseDialect } from "../support/storage.js";

/**
 * How a stream page reads the database: the stream settings, the page's ids and the display names
 * of the users it names are read together, for what the reader's previous page needed (one statement on PostgreSQL). What that may never do: serve a page for
 * stale settings or stale names, on any node.
 */
const API = "/ocs/v2.php/apps/activity/api/v2/activity";
const SETTINGS = "/index.php/apps/activity/api/v2/settings";

const sharedBy = (affecteduser: string, sharer: string) =>
  fileEvent(affecteduser, {
    user: sharer,
    app: "files_sharing",
    type: "shared",
    subject: "shared_with_by",
    subjectparams: [
      { type: "file", value: "/shared.txt", id: 9 },
      { type: "user", value: sharer },
    ],
  });

describe("a stream page's reads", () => {
  let t: TestApp;
  let other: Awaited<ReturnType<typeof createAppOn>>;
  let bearer: string;
  let ivan: string;

  before(async () => {
    t = await createOAuthTestApp();
    other = await createAppOn(t.testStorage.storage, t.testStorage.dataDir, t.clock);
    accepted(await t.services.users.create({ uid: "frank", displayName: "Frank F" }));
    accepted(await t.services.users.create({ uid: "gina", displayName: "Gina G" }));
    accepted(await t.services.users.create({ uid: "ivan" }));
    const tokens = JSON.parse((await exchangeCode(t, await issueCode(t))).body) as { access_token: string };
    bearer = `Bearer ${tokens.access_token}`;
    ivan = await basicAuthFor(t, "ivan");
  });
  after(async () => {
    await other.app.close();
    await t.close();
  });

  it("an activity page on PostgreSQL is two round trips: the bearer check and the page", {
    skip: testDatabaseDialect === "postgres" ? false : "round trips are PostgreSQL's",
  }, async () => {
    await publish(t, [fileEvent("alice"), sharedBy("alice", "frank"), sharedBy("alice", "gina")]);
    const first = await get(t, `${API}?format=json&limit=50`, bearer);
    assert.equal(first.statusCode, 200);
    await t.services.audit.flush(); // earlier requests' audit events are not this request's statements
    const { statements, result } = await statementsOf(t.services.storage, () => get(t, `${API}?format=json&limit=50`, bearer));
    assert.equal(result.statusCode, 200);
    assert.equal(result.body, first.body);
    assert.equal(statements, 2);
  });

  it("a stream setting changed on another node applies to the next page, though that page was read for the types hidden before", async () => {
    const [own] = await publish(t, fileEvent("ivan"));
    const [share] = await publish(t, sharedBy("ivan", "frank"));
    assert.deepEqual(ids(await get(t, API, ivan)), [share, own]);
    const put = (shared: boolean) =>
      other.app.inject({
        method: "PUT",
        url: SETTINGS,
        headers: { authorization: ivan, "content-type": "application/json" },
        payload: { stream: { shared } },
      });
    assert.equal((await put(false)).statusCode, 200);
    assert.deepEqual(ids(await get(t, API, ivan)), [own]);
    assert.equal((await put(true)).statusCode, 200);
    assert.deepEqual(ids(await get(t, API, ivan)), [share, own]);
  });

  it("a user the reader's previous page did not name shows under their display name", async () => {
    await publish(t, sharedBy("ivan", "frank"));
    assert.equal(ocsData(await get(t, API, ivan))[0].subject_rich[1].actor.name, "Frank F");
    await publish(t, sharedBy("ivan", "gina"));
    const page = ocsData(await get(t, API, ivan));
    assert.equal(page[0].subject_rich[1].actor.name, "Gina G");
    assert.equal(page[1].subject_rich[1].actor.name, "Frank F");
  });

  it("a user renamed on another node shows under the new name on the next page, whose names were read with its rows", async () => {
    await publish(t, sharedBy("ivan", "gina"));
    assert.equal(ocsData(await get(t, API, ivan))[0].subject_rich[1].actor.name, "Gina G");
    accepted(await other.services.users.updateProfile("gina", { displayName: "Gina Renamed" }));
    const page = ocsData(await get(t, API, ivan));
    assert.equal(page[0].subject_rich[1].actor.name, "Gina Renamed");
    assert.match(page[0].subject_prepared, /display-name="Gina Renamed"/);
  });

  it("a poll of an unchanged stream answers the same bytes as the first, with and without previews, each element of the previews form being the plain one plus an empty previews list", async () => {
    await publish(t, [sharedBy("ivan", "frank"), fileEvent("ivan", { object_name: '/"quoted" & <b>.txt' })]);
    const plain = await get(t, `${API}?format=json`, ivan);
    const previews = await get(t, `${API}?format=json&previews=true`, ivan);
    assert.equal((await get(t, `${API}?format=json`, ivan)).body, plain.body);
    assert.equal((await get(t, `${API}?format=json&previews=true`, ivan)).body, previews.body);
    assert.equal(
      previews.body,
      JSON.stringify({ ocs: { ...JSON.parse(plain.body).ocs, data: ocsData(plain).map((e) => ({ ...e, previews: [] })) } }),
    );
    const xml = await get(t, `${API}?format=xml&previews=true`, ivan);
    assert.match(xml.body, /<previews><\/previews><\/element>/);
  });

  it("a poll after a rename on another node is rendered afresh, though its rows are the same", async () => {
    await publish(t, sharedBy("ivan", "gina"));
    accepted(await other.services.users.updateProfile("gina", { displayName: "Gina Before" }));
    const before = await get(t, `${API}?format=json`, ivan);
    assert.equal((await get(t, `${API}?format=json`, ivan)).body, before.body);
    accepted(await other.services.users.updateProfile("gina", { displayName: "Gina After" }));
    const after = await get(t, `${API}?format=json`, ivan);
    assert.equal(after.body, before.body.replaceAll("Gina Before", "Gina After"));
    assert.equal(after.headers.etag, before.headers.etag);
  });

  it("a stream whose types are all switched off answers 204, even when since is another user's activity", async () => {
    accepted(await t.services.users.create({ uid: "judy" }));
    const judy = await basicAuthFor(t, "judy");
    const [foreign] = await publish(t, fileEvent("ivan"));
    await publish(t, fileEvent("judy"));
    assert.equal((await get(t, `${API}?since=${foreign}`, judy)).statusCode, 403);
    const off = await t.app.inject({
      method: "PUT",
      url: SETTINGS,
      headers: { authorization: judy, "content-type": "application/json" },
      payload: { stream: { file_created: false, file_changed: false, file_deleted: false, file_restored: false } },
    });
    assert.equal(off.statusCode, 200);
    assert.equal((await get(t, `${API}/files?since=${foreign}`, judy)).statusCode, 204);
  });
});
