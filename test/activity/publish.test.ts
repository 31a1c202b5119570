import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { publishClientAuthorized, publishClientRevoked } from "../../src/activity/security-events.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { basicAuthFor, fileEvent, get, ocsData } from "./support.js";

const EVENTS = "/index.php/apps/activity/api/v2/events";

describe("publishing activities (occ activity:publish, POST …/api/v2/events)", () => {
  let t: TestApp;
  let admin: string;
  let alice: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "root", isAdmin: true }));
    accepted(await t.services.users.create({ uid: "alice" }));
    accepted(await t.services.users.create({ uid: "bob" }));
    admin = await basicAuthFor(t, "root");
    alice = await basicAuthFor(t, "alice");
  });
  after(() => t.close());

  const count = async (uid: string) => t.services.activity.store.countForUser(uid);

  function post(auth: string | undefined, payload: unknown) {
    return t.app.inject({
      method: "POST",
      url: EVENTS,
      headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) },
      payload: JSON.stringify(payload),
    });
  }

  const occ = (args: string[]) => runOccInProcess(args, t.testStorage);

  it("publishes one event over HTTP and returns its id; it shows in the stream", async () => {
    const response = await post(admin, fileEvent("alice", { subject: "created_self", type: "file_created" }));
    assert.equal(response.statusCode, 201);
    const { ids } = JSON.parse(response.body) as { ids: number[] };
    assert.equal(ids.length, 1);
    const stream = ocsData(await get(t, "/index.php/apps/activity/api/v2/activity", alice));
    assert.equal(stream[0].activity_id, ids[0]);
    assert.equal(stream[0].subject_prepared.startsWith("You created <file"), true);
  });

  it("publishes an array, with affectedusers writing one row per user", async () => {
    const before = [await count("alice"), await count("bob")];
    const response = await post(admin, [
      fileEvent("alice"),
      { ...fileEvent("x"), affecteduser: undefined, affectedusers: ["alice", "bob"], user: "" },
    ]);
    assert.equal(response.statusCode, 201);
    assert.equal(JSON.parse(response.body).ids.length, 3);
    assert.deepEqual([await count("alice"), await count("bob")], [before[0]! + 2, before[1]! + 1]);
  });

  it("rejects the whole batch with 400 naming the element and field, and writes nothing", async () => {
    const before = await count("alice");
    const response = await post(admin, [
      fileEvent("alice"),
      fileEvent("alice"),
      { ...fileEvent("alice"), subject: "s".repeat(256) },
    ]);
    assert.equal(response.statusCode, 400);
    const body = JSON.parse(response.body);
    assert.equal(body.error, "invalid_event");
    assert.match(body.error_description, /^event 2: field "subject" must be at most 255 characters/);
    assert.equal(await count("alice"), before);
  });

  it("rejects a batch naming an unknown affected user, writing nothing", async () => {
    const before = await count("alice");
    const response = await post(admin, [fileEvent("alice"), fileEvent("nobody")]);
    assert.equal(response.statusCode, 400);
    assert.match(JSON.parse(response.body).error_description, /unknown affected user: nobody/);
    assert.equal(await count("alice"), before);
  });

  it("is for administrators only (401 anonymous, 403 for a user)", async () => {
    assert.equal((await post(undefined, fileEvent("alice"))).statusCode, 401);
    assert.equal((await post(alice, fileEvent("alice"))).statusCode, 403);
  });

  it("occ activity:publish prints the ids written, one per affected user", async () => {
    const event = { ...fileEvent("x"), affecteduser: undefined, affectedusers: ["alice", "bob"] };
    const { code, out } = await occ(["activity:publish", "--json", JSON.stringify(event)]);
    assert.equal(code, 0);
    const ids = out.trim().split("\n").map(Number);
    assert.equal(ids.length, 2);
    assert.ok(ids.every((id) => Number.isSafeInteger(id) && id > 0));
  });

  it("occ activity:publish refuses a bad event with exit 1 and writes nothing", async () => {
    const before = await count("alice");
    const bad = [fileEvent("alice"), { ...fileEvent("alice"), app: "" }];
    const { code, out } = await occ(["activity:publish", "--json", JSON.stringify(bad)]);
    assert.equal(code, 1);
    assert.equal(out, "");
    assert.equal(await count("alice"), before);
    assert.equal((await occ(["activity:publish", "--json", "{not json"])).code, 1);
  });

  it("the OAuth helpers publish oauth2/security events the user sees under the security filter", async () => {
    await publishClientAuthorized(t.services.activity, { uid: "bob", clientName: "Desktop <Sync>" });
    await publishClientRevoked(t.services.activity, { uid: "bob", clientName: "Desktop <Sync>" });
    const bob = await basicAuthFor(t, "bob");
    const response = await get(t, "/index.php/apps/activity/api/v2/activity/security", bob);
    assert.equal(response.statusCode, 200);
    const data = ocsData(response);
    assert.deepEqual(
      data.map((e) => [e.app, e.type, e.subject]),
      [
        ["oauth2", "security", "client_revoked"],
        ["oauth2", "security", "client_authorized"],
      ],
    );
    assert.equal(data[1].subject_prepared, "You granted <parameter>Desktop &lt;Sync&gt;</parameter> access to your account");
    assert.deepEqual(data[1].subjectparams, [{ type: "parameter", value: "Desktop <Sync>" }]);
  });
});
