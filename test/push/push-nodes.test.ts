import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { ManualClock } from "../../src/clock.js";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import { PUSH_NOTIFY_CHANNEL } from "../../src/storage/stores/push/push-channel.js";
import { fileEvent, publish } from "../activity/support.js";
import { createAppOn, createTestApp, type TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";
import { connectAs, listenForPush } from "./support.js";

describe("push across nodes on one PostgreSQL database (LISTEN/NOTIFY)", { skip: testDatabaseDialect !== "postgres" }, () => {
  let t: TestApp;
  let second: Awaited<ReturnType<typeof createAppOn>>;
  let secondStorage: Storage;
  let secondUrl: string;
  let secret: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
    secret = accepted(await t.services.appPasswords.create("alice", "desktop")).secret;
    secondStorage = openStorage({ databaseUrl: t.testStorage.databaseUrl, dataDir: t.testStorage.dataDir });
    second = await createAppOn(secondStorage, t.testStorage.dataDir, new ManualClock());
    secondUrl = await listenForPush(second.app);
  });
  after(async () => {
    await second.app.close();
    await secondStorage.close();
    await t.close();
  });

  it("delivers an activity published on one node to a socket on the other", async () => {
    const client = await connectAs(secondUrl, "alice", secret);
    assert.equal(await client.next(), "authenticated");
    await publish(t, fileEvent("alice"));
    assert.equal(await client.next(), "notify_activity");
    assert.equal(await client.next(), "notify_file");
    await client.close();
  });

  it("delivers each affected user's event of one publish to that user's sockets", async () => {
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
    const bobSecret = accepted(await t.services.appPasswords.create("bob", "desktop")).secret;
    const alice = await connectAs(secondUrl, "alice", secret);
    const bob = await connectAs(secondUrl, "bob", bobSecret);
    assert.equal(await alice.next(), "authenticated");
    assert.equal(await bob.next(), "authenticated");
    await publish(t, [fileEvent("alice"), fileEvent("bob")]);
    assert.equal(await alice.next(), "notify_activity");
    assert.equal(await bob.next(), "notify_activity");
    await alice.close();
    await bob.close();
  });

  it("closes the user's sockets on the other node when an app password is revoked", async () => {
    const { secret: laptop, appPassword } = accepted(await t.services.appPasswords.create("alice", "laptop"));
    const client = await connectAs(secondUrl, "alice", laptop);
    assert.equal(await client.next(), "authenticated");
    await t.services.appPasswords.revoke("alice", appPassword.id);
    assert.equal(await client.closed, 1008);
  });

  it("listens again after its LISTEN connection is killed, and tells its sockets to catch up", async () => {
    const client = await connectAs(secondUrl, "alice", secret);
    assert.equal(await client.next(), "authenticated");
    const admin = new pg.Client({ connectionString: t.testStorage.databaseUrl });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = $1",
        [`LISTEN ${PUSH_NOTIFY_CHANNEL}`],
      );
      assert.equal(rowCount, 1, "the second node's listening connection");
    } finally {
      await admin.end();
    }
    // Whatever was published while it was gone, the socket is told to look.
    assert.equal(await client.next(), "notify_activity");
    assert.equal(await client.next(), "notify_file");
    assert.equal(await client.next(), "notify_notification");
    // And it hears new publishes again (after the debounce window of the catch-up).
    await publish(t, { ...fileEvent("alice"), object_type: "", object_id: 0, object_name: "" });
    assert.equal(await client.next(), "notify_activity");
    await client.close();
  });
});
