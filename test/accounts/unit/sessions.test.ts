import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EndedSessions } from "../../../src/accounts/ports.js";
import { LAST_SEEN_RESOLUTION_SECONDS, PENDING_SESSION_SECONDS, Sessions } from "../../../src/accounts/sessions.js";
import { ManualClock } from "../../../src/clock.js";
import { sha256Hex } from "../../../src/crypto/secrets.js";
import { addUsers, memoryStores } from "../../support/memory/index.js";

const LIFETIME = 3600;

async function setup() {
  const stores = memoryStores();
  await addUsers(stores, "alice", "bob");
  const clock = new ManualClock(1_800_000_000);
  const ended: EndedSessions[] = [];
  const sessions = new Sessions(stores.sessions, clock, () => LIFETIME, [{ sessionsEnded: async (e) => void ended.push(e) }]);
  return { stores, clock, ended, sessions };
}

describe("accounts: the rules of sessions, on memory stores", () => {
  it("a session is stored under the digest of its token, never the token itself", async () => {
    const { sessions, stores } = await setup();
    const session = await sessions.start("alice", "Browser/1");
    assert.ok(await stores.sessions.findByIdHash(sha256Hex(session.token)));
    assert.equal(await stores.sessions.findByIdHash(session.token), undefined);
  });

  it("a session is live until its expiry, and never for a disabled user", async () => {
    const { sessions, stores, clock } = await setup();
    const session = await sessions.start("alice");
    assert.equal((await sessions.find(session.token))?.uid, "alice");
    await stores.users.setEnabled("alice", false);
    assert.equal(await sessions.find(session.token), undefined);
    await stores.users.setEnabled("alice", true);
    clock.advance(LIFETIME);
    assert.equal(await sessions.find(session.token), undefined, "expired at its expiry");
  });

  it("a token that is empty or longer than 128 characters is no session, without a lookup", async () => {
    const { sessions } = await setup();
    assert.equal(await sessions.find(""), undefined);
    assert.equal(await sessions.find("x".repeat(129)), undefined);
  });

  it("a session owing a step lives PENDING_SESSION_SECONDS and is never extended", async () => {
    const { sessions, clock } = await setup();
    const pending = await sessions.start("alice", undefined, "second_factor");
    assert.equal(pending.expiresAt, clock.nowSeconds() + PENDING_SESSION_SECONDS);
    clock.advance(LAST_SEEN_RESOLUTION_SECONDS * 2);
    await sessions.touch(pending);
    assert.equal((await sessions.find(pending.token))?.expiresAt, pending.expiresAt);
  });

  it("completing a pending session ends it and starts a new one with a new token", async () => {
    const { sessions, ended } = await setup();
    const pending = await sessions.start("alice", undefined, "second_factor");
    const complete = await sessions.complete(pending);
    assert.notEqual(complete.token, pending.token);
    assert.equal(complete.pending, null);
    assert.equal(await sessions.find(pending.token), undefined);
    assert.deepEqual(ended, [{ sessionIdHash: sha256Hex(pending.token) }]);
  });

  it("touching writes at most once per LAST_SEEN_RESOLUTION_SECONDS, then slides the expiry", async () => {
    const { sessions, clock } = await setup();
    const session = await sessions.start("alice");
    const started = session.expiresAt;
    clock.advance(LAST_SEEN_RESOLUTION_SECONDS - 1);
    await sessions.touch(session);
    assert.equal((await sessions.find(session.token))?.expiresAt, started, "not yet");
    clock.advance(1);
    await sessions.touch(session);
    const read = await sessions.find(session.token);
    assert.equal(read?.expiresAt, clock.nowSeconds() + LIFETIME);
    assert.equal(read?.lastSeenAt, clock.nowSeconds());
  });

  it("a user ends only their own sessions, and the observers hear of each ending", async () => {
    const { sessions, ended } = await setup();
    const bobs = await sessions.start("bob");
    const id = sha256Hex(bobs.token);
    assert.equal(await sessions.endOwn("alice", id), false);
    assert.deepEqual(ended, []);
    assert.equal(await sessions.endOwn("bob", id), true);
    assert.deepEqual(ended, [{ sessionIdHash: id }]);
  });

  it("ending all of a user's sessions keeps the one named and lists the most recently seen first", async () => {
    const { sessions, clock, ended } = await setup();
    const first = await sessions.start("alice");
    clock.advance(10);
    const second = await sessions.start("alice");
    assert.deepEqual(
      (await sessions.listOf("alice")).map((s) => s.id),
      [sha256Hex(second.token), sha256Hex(first.token)],
    );
    assert.equal(await sessions.endAllOf("alice", second.token), 1);
    assert.ok(await sessions.find(second.token));
    assert.deepEqual(ended, [{ uid: "alice", exceptSessionIdHash: sha256Hex(second.token) }]);
  });
});
