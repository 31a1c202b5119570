import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import WebSocket from "ws";
import { fileEvent, proxyLogLine, publish } from "../activity/support.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { connectAs, listenForPush, PushClient } from "./support.js";

function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
}

function securityEvent(affecteduser: string): Record<string, unknown> {
  return fileEvent(affecteduser, { app: "core", type: "security", object_type: "", object_id: 0, object_name: "" });
}

describe("push (nextcloud/notify_push protocol): authentication and messages", () => {
  let t: TestApp;
  let url: string;
  let alicePassword: string;
  let bobPassword: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
    alicePassword = accepted(await t.services.appPasswords.create("alice", "desktop")).secret;
    bobPassword = accepted(await t.services.appPasswords.create("bob", "desktop")).secret;
    url = await listenForPush(t.app);
  });
  after(() => t.close());

  it("authenticates a user name and app password sent as two text frames", async () => {
    const client = await connectAs(url, "alice", alicePassword);
    assert.equal(await client.next(), "authenticated");
    await client.close();
  });

  it("answers wrong credentials with `err: Invalid credentials` and closes", async () => {
    const client = await connectAs(url, "alice", "not the password");
    assert.equal(await client.next(), "err: Invalid credentials");
    assert.equal(await client.closed, 1008);
    const other = await connectAs(url, "bob", alicePassword);
    assert.equal(await other.next(), "err: Invalid credentials", "another user's app password is no credential");
  });

  it("accepts the account password where HTTP Basic does, and refuses it under token_auth_enforced", async () => {
    const client = await connectAs(url, "alice", "alice password");
    assert.equal(await client.next(), "authenticated");
    await client.close();
    t.services.settings.set("token_auth_enforced", true);
    try {
      const refused = await connectAs(url, "alice", "alice password");
      assert.equal(await refused.next(), "err: Invalid credentials");
      const appPassword = await connectAs(url, "alice", alicePassword);
      assert.equal(await appPassword.next(), "authenticated", "an app password still opens a socket");
      await appPassword.close();
    } finally {
      t.services.settings.delete("token_auth_enforced");
    }
  });

  it("counts a wrong account password in the login throttle, as HTTP Basic does", async () => {
    const before = t.sleeps.length;
    for (let i = 0; i < 3; i++) {
      const client = await connectAs(url, "bob", `guess ${i}`);
      assert.equal(await client.next(), "err: Invalid credentials");
    }
    assert.ok(t.sleeps.length > before, "later guesses were delayed by the throttle");
  });

  it("closes a socket that does not authenticate in time with `err: Authentication timeout`", async () => {
    t.services.push.authenticationTimeoutMs = 50;
    try {
      const client = new PushClient(new WebSocket(url));
      await client.opened;
      client.send("alice");
      assert.equal(await client.next(), "err: Authentication timeout");
      assert.equal(await client.closed, 1008);
    } finally {
      t.services.push.authenticationTimeoutMs = 15_000;
    }
  });

  it("authenticates an empty user name with a pre-auth token, valid 15 s", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/index.php/apps/notify_push/pre_auth",
      headers: { authorization: basic("alice", alicePassword) },
    });
    assert.equal(response.statusCode, 200);
    const token = response.body;
    const client = await connectAs(url, "", token);
    assert.equal(await client.next(), "authenticated");
    await client.close();
    t.clock.advance(16);
    const late = await connectAs(url, "", token);
    assert.equal(await late.next(), "err: Invalid credentials", "an expired token");
    const forged = await connectAs(url, "", `${token.slice(0, -2)}xx`);
    assert.equal(await forged.next(), "err: Invalid credentials", "a token with another signature");
    const anonymous = await t.app.inject({ method: "POST", url: "/index.php/apps/notify_push/pre_auth" });
    assert.equal(anonymous.statusCode, 401, "a pre-auth token only for a user who is signed in");
  });

  it("sends `notify_activity` to the affected user's sockets for an activity published, and nothing to others", async () => {
    const alice = await connectAs(url, "alice", alicePassword);
    const bob = await connectAs(url, "bob", bobPassword);
    assert.equal(await alice.next(), "authenticated");
    assert.equal(await bob.next(), "authenticated");
    await publish(t, securityEvent("alice"));
    assert.equal(await alice.next(), "notify_activity");
    await publish(t, fileEvent("bob"));
    assert.equal(await bob.next(), "notify_activity", "bob's first message is for bob's activity");
    assert.equal(await bob.next(), "notify_file");
    await alice.close();
    await bob.close();
  });

  it("sends `notify_file_id [ids]` instead of `notify_file` after `listen notify_file_id`", async () => {
    const client = await connectAs(url, "alice", alicePassword);
    assert.equal(await client.next(), "authenticated");
    client.send("listen notify_file_id");
    await client.roundTrip();
    await publish(t, [fileEvent("alice", { object_id: 42 }), fileEvent("alice", { object_id: 43 })]);
    assert.equal(await client.next(), "notify_activity");
    assert.equal(await client.next(), "notify_file_id [42,43]");
    await client.close();
  });

  it("sends `notify_activity` for an activity published under an idempotency key (occ activity:publish, the API)", async () => {
    // Every message counted: no debounce merges two into one.
    t.services.push.hub.debounceMs = 0;
    try {
      const client = await connectAs(url, "alice", alicePassword);
      assert.equal(await client.next(), "authenticated");
      const result = await t.services.activity.publishOnce(securityEvent("alice"), { kind: "occ" }, "push-key-1");
      assert.ok(result.ok);
      assert.equal(await client.next(), "notify_activity");
      const replay = await t.services.activity.publishOnce(securityEvent("alice"), { kind: "occ" }, "push-key-1");
      assert.ok(replay.ok && replay.value.replayed);
      await publish(t, fileEvent("alice"));
      // The replay wrote nothing and told nothing: the next frames are the file activity's.
      assert.equal(await client.next(), "notify_activity");
      assert.equal(await client.next(), "notify_file");
      await client.close();
    } finally {
      t.services.push.hub.debounceMs = 1000;
    }
  });

  it("sends `notify_activity` and `notify_file` (no file ids known) for what the proxy-log follower publishes", async () => {
    const client = await connectAs(url, "alice", alicePassword);
    assert.equal(await client.next(), "authenticated");
    client.send("listen notify_file_id");
    await client.roundTrip();
    const log = path.join(t.testStorage.dataDir, "push-files.log");
    fs.writeFileSync(log, proxyLogLine({ id: 1, uri: "/remote.php/webdav/pushed.txt", status: 201 }));
    const report = await t.services.fileLog.importFile(log);
    assert.equal(report.published, 1);
    assert.equal(await client.next(), "notify_activity");
    assert.equal(await client.next(), "notify_file");
    await client.close();
  });

  it("closes the user's sockets at once when an app password is revoked", async () => {
    const { secret, appPassword } = accepted(await t.services.appPasswords.create("alice", "laptop"));
    const client = await connectAs(url, "alice", secret);
    assert.equal(await client.next(), "authenticated");
    assert.equal(await t.services.appPasswords.revoke("alice", appPassword.id), true);
    assert.equal(await client.closed, 1008);
  });

  it("closes the user's sockets at once when the user is disabled", async () => {
    accepted(await t.services.users.create({ uid: "carol", password: "carol password" }));
    const { secret } = accepted(await t.services.appPasswords.create("carol", "desktop"));
    const client = await connectAs(url, "carol", secret);
    assert.equal(await client.next(), "authenticated");
    accepted(await t.services.users.setEnabled("carol", false));
    assert.equal(await client.closed, 1008);
    const again = await connectAs(url, "carol", secret);
    assert.equal(await again.next(), "err: Invalid credentials");
  });

  it("answers a plain GET of the websocket path 426 Upgrade Required", async () => {
    const response = await t.app.inject({ method: "GET", url: "/push/ws" });
    assert.equal(response.statusCode, 426);
    assert.equal(response.headers.upgrade, "websocket");
  });
});

describe("push: the capability", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it("advertises files, activities and notifications with ws:// for an http base URL", async () => {
    const { ocs } = (await t.app.inject({ method: "GET", url: "/ocs/v2.php/cloud/capabilities?format=json" })).json();
    assert.deepEqual(ocs.data.capabilities.notify_push, {
      type: ["files", "activities", "notifications"],
      endpoints: {
        websocket: "ws://localhost:80/push/ws",
        pre_auth: "http://localhost:80/index.php/apps/notify_push/pre_auth",
      },
    });
  });

  it("uses wss:// when the base URL is https", async () => {
    t.services.settings.set("overwrite.cli.url", "https://cloud.example/keystream");
    try {
      const { ocs } = (await t.app.inject({ method: "GET", url: "/ocs/v1.php/cloud/capabilities?format=json" })).json();
      assert.deepEqual(ocs.data.capabilities.notify_push.endpoints, {
        websocket: "wss://cloud.example/keystream/push/ws",
        pre_auth: "https://cloud.example/keystream/index.php/apps/notify_push/pre_auth",
      });
    } finally {
      t.services.settings.delete("overwrite.cli.url");
    }
  });
});

describe("push: graceful shutdown", () => {
  it("closes every socket with 1001 (going away) when the server stops", async () => {
    const t = await createTestApp();
    try {
      accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
      const { secret } = accepted(await t.services.appPasswords.create("alice", "desktop"));
      const url = await listenForPush(t.app);
      const client = await connectAs(url, "alice", secret);
      assert.equal(await client.next(), "authenticated");
      const closing = t.app.close();
      assert.equal(await client.closed, 1001);
      await closing;
    } finally {
      await t.testStorage.cleanup();
    }
  });
});
