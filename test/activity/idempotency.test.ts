import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { WriteTransaction } from "../../src/activity/ports.js";
import { publishActivitiesOnce } from "../../src/activity/publish-activity.js";
import { SqlActivityStore } from "../../src/storage/stores/activity/activity-store.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { basicAuthFor, fileEvent } from "./support.js";

const EVENTS = "/index.php/apps/activity/api/v2/events";
const DAY = 86_400;

function postWith(t: TestApp, auth: string, payload: unknown, key?: string) {
  return t.app.inject({
    method: "POST",
    url: EVENTS,
    headers: {
      "content-type": "application/json",
      authorization: auth,
      ...(key === undefined ? {} : { "idempotency-key": key }),
    },
    payload: JSON.stringify(payload),
  });
}

describe("idempotency keys on publishing (Idempotency-Key, occ activity:publish --idempotency-key)", () => {
  let t: TestApp;
  let root: string;
  let ops: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "root", isAdmin: true }));
    accepted(await t.services.users.create({ uid: "ops", isAdmin: true }));
    accepted(await t.services.users.create({ uid: "alice" }));
    root = await basicAuthFor(t, "root");
    ops = await basicAuthFor(t, "ops");
  });
  after(() => t.close());

  const rows = () => t.services.activity.store.countForUser("alice");
  const occ = (args: string[]) => runOccInProcess(args, t.testStorage);

  it("a retry with the same key returns the first answer (status and body) and stores the events once", async () => {
    const event = [fileEvent("alice"), fileEvent("alice", { object_id: 8 })];
    const before = await rows();
    const first = await postWith(t, root, event, "retry-1");
    assert.equal(first.statusCode, 201);
    assert.equal(await rows(), before + 2);
    const retry = await postWith(t, root, event, "retry-1");
    assert.equal(retry.statusCode, first.statusCode);
    assert.equal(retry.body, first.body);
    assert.equal(retry.headers["idempotent-replayed"], "true");
    assert.equal(first.headers["idempotent-replayed"], undefined);
    assert.equal(await rows(), before + 2);
  });

  it("the same key with a different body is refused with 422 and writes nothing", async () => {
    assert.equal((await postWith(t, root, fileEvent("alice"), "reused-1")).statusCode, 201);
    const before = await rows();
    const response = await postWith(t, root, fileEvent("alice", { object_id: 99 }), "reused-1");
    assert.equal(response.statusCode, 422);
    const body = JSON.parse(response.body);
    assert.equal(body.error, "idempotency_key_reused");
    assert.match(body.error_description, /"reused-1" was already used for a different request/);
    assert.equal(await rows(), before);
  });

  it("keys are per administrator: another administrator's same key publishes anew", async () => {
    const before = await rows();
    const mine = await postWith(t, root, fileEvent("alice"), "shared-key");
    const theirs = await postWith(t, ops, fileEvent("alice"), "shared-key");
    assert.equal(theirs.statusCode, 201);
    assert.notEqual(theirs.body, mine.body);
    assert.equal(theirs.headers["idempotent-replayed"], undefined);
    assert.equal(await rows(), before + 2);
  });

  it("a key must be 1–255 printable ASCII characters (or an RFC 8941 quoted string of them): 400 otherwise, nothing written", async () => {
    const before = await rows();
    for (const bad of ['""', "k".repeat(256), "caf\u00e9", "tab\there", '"unterminated', '"bad \\n escape"']) {
      const response = await postWith(t, root, fileEvent("alice"), bad);
      assert.equal(response.statusCode, 400, `key ${JSON.stringify(bad)}`);
      assert.equal(JSON.parse(response.body).error, "invalid_idempotency_key");
    }
    assert.equal(await rows(), before);
    assert.equal((await postWith(t, root, fileEvent("alice"), "k".repeat(255))).statusCode, 201);
  });

  it('the quoted form "key" of the draft names the same key as the bare form key', async () => {
    const first = await postWith(t, root, fileEvent("alice", { object_id: 5 }), "quoted-or-not");
    const before = await rows();
    const retry = await postWith(t, root, fileEvent("alice", { object_id: 5 }), '"quoted-or-not"');
    assert.equal(retry.body, first.body);
    assert.equal(await rows(), before);
  });

  it("a refused publish records no key: the same key with a corrected body then publishes", async () => {
    const refused = await postWith(t, root, fileEvent("nobody"), "fix-and-retry");
    assert.equal(refused.statusCode, 400);
    const before = await rows();
    const fixed = await postWith(t, root, fileEvent("alice"), "fix-and-retry");
    assert.equal(fixed.statusCode, 201);
    assert.equal(fixed.headers["idempotent-replayed"], undefined);
    assert.equal(await rows(), before + 1);
  });

  it("concurrent requests with the same key write the events once and all answer the first ids", async () => {
    const before = await rows();
    const answers = await Promise.all([1, 2, 3, 4].map(() => postWith(t, root, fileEvent("alice"), "concurrent-1")));
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      [201, 201, 201, 201],
    );
    assert.equal(new Set(answers.map((a) => a.body)).size, 1);
    assert.equal(answers.filter((a) => a.headers["idempotent-replayed"] === undefined).length, 1);
    assert.equal(await rows(), before + 1);
  });

  it("the key is written in the events' transaction: a publish that fails while writing leaves no key, and its retry publishes", async () => {
    const real = t.services.activity.store;
    const failing = new (class extends SqlActivityStore {
      override async insertInto(trx: WriteTransaction, rows: Parameters<SqlActivityStore["insertInto"]>[1]): Promise<number[]> {
        await super.insertInto(trx, rows);
        throw new Error("crash after the events were written");
      }
    })(t.services.storage.db);
    const keys = t.services.activity.idempotencyKeys;
    const before = { rows: await rows(), keys: await keys.count() };
    const publisher = { kind: "user" as const, uid: "root" };
    const now = t.clock.nowSeconds();
    await assert.rejects(
      publishActivitiesOnce({ activity: failing, keys }, publisher, "torn-1", fileEvent("alice"), now),
      /crash after/,
    );
    assert.deepEqual({ rows: await rows(), keys: await keys.count() }, before);
    const retry = await publishActivitiesOnce({ activity: real, keys }, publisher, "torn-1", fileEvent("alice"), now);
    assert.ok(retry.ok && !retry.value.replayed && retry.value.ids.length === 1);
    assert.deepEqual({ rows: await rows(), keys: await keys.count() }, { rows: before.rows + 1, keys: before.keys + 1 });
  });

  it("without a key every publish writes (the header is optional)", async () => {
    const before = await rows();
    await postWith(t, root, fileEvent("alice"));
    await postWith(t, root, fileEvent("alice"));
    assert.equal(await rows(), before + 2);
  });

  it("occ activity:publish with the same --idempotency-key twice publishes once and prints the same ids", async () => {
    const event = JSON.stringify([fileEvent("alice"), fileEvent("alice")]);
    const before = await rows();
    const first = await occ(["activity:publish", "--json", event, "--idempotency-key", "occ-1"]);
    assert.equal(first.code, 0);
    assert.equal(first.out.trim().split("\n").length, 2);
    const second = await occ(["activity:publish", "--json", event, "--idempotency-key", "occ-1"]);
    assert.equal(second.code, 0);
    assert.equal(second.out, first.out);
    assert.equal(await rows(), before + 2);
  });

  it("occ activity:publish refuses a reused key with another event (exit 1) and a malformed key, writing nothing", async () => {
    await occ(["activity:publish", "--json", JSON.stringify(fileEvent("alice")), "--idempotency-key", "occ-2"]);
    const before = await rows();
    const other = await occ([
      "activity:publish",
      "--json",
      JSON.stringify(fileEvent("alice", { object_id: 3 })),
      "--idempotency-key",
      "occ-2",
    ]);
    assert.equal(other.code, 1);
    assert.match(other.err, /"occ-2" was already used for a different request/);
    const malformed = await occ([
      "activity:publish",
      "--json",
      JSON.stringify(fileEvent("alice")),
      "--idempotency-key",
      "k".repeat(256),
    ]);
    assert.equal(malformed.code, 1);
    assert.equal(await rows(), before);
  });

  it("occ's keys and an administrator's keys never answer for each other", async () => {
    const event = fileEvent("alice", { object_id: 11 });
    const byOcc = await occ(["activity:publish", "--json", JSON.stringify(event), "--idempotency-key", "both-1"]);
    const before = await rows();
    const overHttp = await postWith(t, root, event, "both-1");
    assert.equal(overHttp.headers["idempotent-replayed"], undefined);
    assert.notDeepEqual(JSON.parse(overHttp.body).ids, byOcc.out.trim().split("\n").map(Number));
    assert.equal(await rows(), before + 1);
  });
});

describe("idempotency keys expire after 24 h (ManualClock)", () => {
  let t: TestApp;
  let root: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "root", isAdmin: true }));
    accepted(await t.services.users.create({ uid: "alice" }));
    root = await basicAuthFor(t, "root");
  });
  after(() => t.close());

  const rows = () => t.services.activity.store.countForUser("alice");

  it("a key is remembered for 24 h, then forgotten (the same key publishes anew) and purged by the background job", async () => {
    const first = await postWith(t, root, fileEvent("alice"), "daily");
    t.clock.advance(DAY - 1);
    const within = await postWith(t, root, fileEvent("alice"), "daily");
    assert.equal(within.body, first.body);
    assert.equal(await rows(), 1);

    t.clock.advance(1);
    assert.equal(await t.services.activity.idempotencyKeys.count(), 1);
    const ran = await t.services.jobs.runDueJobs();
    assert.ok(ran.includes("activity:expired-idempotency-keys"));
    assert.equal(await t.services.activity.idempotencyKeys.count(), 0);

    const after = await postWith(t, root, fileEvent("alice"), "daily");
    assert.equal(after.statusCode, 201);
    assert.notEqual(after.body, first.body);
    assert.equal(await rows(), 2);
  });

  it("an expired key not yet purged is forgotten too: the same key publishes anew", async () => {
    const first = await postWith(t, root, fileEvent("alice", { object_id: 2 }), "unpurged");
    t.clock.advance(DAY);
    const before = await rows();
    const again = await postWith(t, root, fileEvent("alice", { object_id: 2 }), "unpurged");
    assert.equal(again.statusCode, 201);
    assert.notEqual(again.body, first.body);
    assert.equal(await rows(), before + 1);
  });

  it("deleting the administrator deletes their keys", async () => {
    accepted(await t.services.users.create({ uid: "temp-admin", isAdmin: true }));
    const auth = await basicAuthFor(t, "temp-admin");
    const before = await t.services.activity.idempotencyKeys.count();
    await postWith(t, auth, fileEvent("alice"), "gone-with-user");
    assert.equal(await t.services.activity.idempotencyKeys.count(), before + 1);
    accepted(await t.services.users.delete("temp-admin"));
    assert.equal(await t.services.activity.idempotencyKeys.count(), before);
  });
});
