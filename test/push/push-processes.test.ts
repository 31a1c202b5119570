import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PushHub, type PushSocket } from "../../src/push/hub.js";
import { SqlitePushChannel } from "../../src/storage/stores/push/push-channel-sqlite.js";
import { fileEvent, publish } from "../activity/support.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { runOcc } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";
import { connectAs, listenForPush } from "./support.js";

const silentSocket: PushSocket = { send() {}, ping() {}, close() {}, terminate() {} };

describe("push: activities another process writes reach this server's sockets", () => {
  let t: TestApp;
  let url: string;
  let aliceSecret: string;
  let bobSecret: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
    aliceSecret = accepted(await t.services.appPasswords.create("alice", "desktop")).secret;
    bobSecret = accepted(await t.services.appPasswords.create("bob", "desktop")).secret;
    url = await listenForPush(t.app);
  });
  after(() => t.close());

  it(`sends \`notify_activity\` and \`notify_file_id\` for what \`./occ activity:publish\` writes (${testDatabaseDialect}: ${testDatabaseDialect === "sqlite" ? "the table read while sockets are open" : "NOTIFY"})`, async () => {
    const alice = await connectAs(url, "alice", aliceSecret);
    const bob = await connectAs(url, "bob", bobSecret);
    assert.equal(await alice.next(), "authenticated");
    assert.equal(await bob.next(), "authenticated");
    alice.send("listen notify_file_id");
    await alice.roundTrip();
    const result = await runOcc(
      ["activity:publish"],
      t.testStorage,
      {},
      `${JSON.stringify(fileEvent("alice", { object_id: 4242 }))}\n`,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await alice.next(), "notify_activity");
    assert.equal(await alice.next(), "notify_file_id [4242]");
    // Bob's socket heard nothing of it: his next frame is for his own activity.
    const again = await runOcc(["activity:publish"], t.testStorage, {}, `${JSON.stringify(fileEvent("bob"))}\n`);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(await bob.next(), "notify_activity");
    assert.equal(await bob.next(), "notify_file");
    await alice.close();
    await bob.close();
  });

  it("closes the user's sockets when `./occ user:disable` in another process ends their credentials", async () => {
    accepted(await t.services.users.create({ uid: "carol", password: "carol password" }));
    const carolSecret = accepted(await t.services.appPasswords.create("carol", "desktop")).secret;
    const carol = await connectAs(url, "carol", carolSecret);
    const alice = await connectAs(url, "alice", aliceSecret);
    assert.equal(await carol.next(), "authenticated");
    assert.equal(await alice.next(), "authenticated");
    const result = await runOcc(["user:disable", "carol"], t.testStorage);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await carol.closed, 1008);
    // Another user's socket stays open.
    await alice.roundTrip();
    assert.equal(alice.closeCode, undefined);
    await alice.close();
  });

  it("sends one `notify_activity` for an activity written in this process, not a second from reading its row", async () => {
    t.services.push.hub.debounceMs = 0;
    try {
      const alice = await connectAs(url, "alice", aliceSecret);
      const bob = await connectAs(url, "bob", bobSecret);
      assert.equal(await alice.next(), "authenticated");
      assert.equal(await bob.next(), "authenticated");
      await publish(t, fileEvent("alice", { app: "core", type: "security", object_type: "", object_id: 0, object_name: "" }));
      assert.equal(await alice.next(), "notify_activity");
      // Bob's later row is told by a read that has read alice's row too: had it told her again,
      // that frame would be on her socket before the answer to her ping.
      await publish(t, fileEvent("bob", { app: "core", type: "security", object_type: "", object_id: 0, object_name: "" }));
      assert.equal(await bob.next(), "notify_activity");
      await alice.roundTrip();
      assert.equal(alice.pending, 0, "no second notify_activity");
      await alice.close();
      await bob.close();
    } finally {
      t.services.push.hub.debounceMs = 1000;
    }
  });

  it("reads the tables only while this node has a socket open (SQLite)", { skip: testDatabaseDialect !== "sqlite" }, async () => {
    const channel = new SqlitePushChannel(t.services.storage.db, (error) => assert.fail(String(error)));
    const hub = new PushHub(channel);
    await hub.start();
    assert.equal(channel.polling, false, "no socket: nothing read");
    hub.add("alice", silentSocket);
    assert.equal(channel.polling, true);
    const second: PushSocket = { ...silentSocket };
    hub.add("bob", second);
    hub.remove(silentSocket);
    assert.equal(channel.polling, true, "one socket still open");
    hub.remove(second);
    assert.equal(channel.polling, false, "the last socket closed: reading stops");
    await hub.close();
  });
});
