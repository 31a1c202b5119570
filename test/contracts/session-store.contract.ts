import assert from "node:assert/strict";
import type { NewSessionRecord } from "../../src/accounts/ports.js";
import { sha256Hex } from "../../src/crypto/secrets.js";
import type { Contract, ContractStores } from "./harness.js";

export function session(s: ContractStores, uid: string | null, overrides: Partial<NewSessionRecord> = {}): NewSessionRecord {
  return {
    // A SHA-256 hex digest, as the port takes (the column is char(64)).
    idHash: sha256Hex(s.unique("session-")),
    uid,
    csrfToken: "csrf",
    createdAt: 1000,
    expiresAt: 2000,
    userAgent: "Browser/1",
    lastSeenAt: 1000,
    ...overrides,
  };
}

/** accounts/ports.ts SessionStore, case by case. */
export const sessionStoreContract: Contract = {
  "a stored session reads back with its user's enabled flag and pending step; an absent one is undefined": async (s) => {
    const uid = await s.user();
    const written = session(s, uid, { pending: "second_factor" });
    await s.sessions.insert(written);
    assert.deepEqual(await s.sessions.findByIdHash(written.idHash), {
      uid,
      csrfToken: "csrf",
      createdAt: 1000,
      expiresAt: 2000,
      lastSeenAt: 1000,
      userEnabled: true,
      pending: "second_factor",
    });
    await s.users.setEnabled(uid, false);
    assert.equal((await s.sessions.findByIdHash(written.idHash))?.userEnabled, false);
    const anonymous = session(s, null);
    await s.sessions.insert(anonymous);
    assert.equal((await s.sessions.findByIdHash(anonymous.idHash))?.userEnabled, false, "no user: not enabled");
    assert.equal(await s.sessions.findByIdHash(s.unique("absent")), undefined);
  },

  "a complete login is its user's last sign-in; a session still owing a step is not": async (s) => {
    const uid = await s.user();
    await s.sessions.insert(session(s, uid, { createdAt: 1500, pending: "second_factor_setup" }));
    assert.equal((await s.users.findListing(uid))?.lastLoginAt, null);
    await s.sessions.insert(session(s, uid, { createdAt: 1600, pending: null }));
    assert.equal((await s.users.findListing(uid))?.lastLoginAt, 1600);
  },

  "extend moves expiry and last-seen; an expired session is still read (the caller decides)": async (s) => {
    const uid = await s.user();
    const written = session(s, uid);
    await s.sessions.insert(written);
    await s.sessions.extend(written.idHash, 9000, 1800);
    const read = await s.sessions.findByIdHash(written.idHash);
    assert.deepEqual([read?.expiresAt, read?.lastSeenAt], [9000, 1800]);
    await s.sessions.extend(s.unique("absent"), 1, 1);
  },

  "listLiveOf lists the user's sessions expiring after now, and only theirs": async (s) => {
    const [uid, other] = [await s.user(), await s.user()];
    const live = session(s, uid, { expiresAt: 3000 });
    await s.sessions.insert(live);
    await s.sessions.insert(session(s, uid, { expiresAt: 2500 }));
    await s.sessions.insert(session(s, other, { expiresAt: 3000 }));
    assert.deepEqual(await s.sessions.listLiveOf(uid, 2500), [
      { id: live.idHash, userAgent: "Browser/1", createdAt: 1000, lastSeenAt: 1000 },
    ]);
  },

  "deleteOwn deletes only the owner's session; deleteAllOf keeps the one named and counts": async (s) => {
    const [uid, other] = [await s.user(), await s.user()];
    const [a, b, c] = [session(s, uid), session(s, uid), session(s, uid)];
    for (const row of [a, b, c]) await s.sessions.insert(row);
    assert.equal(await s.sessions.deleteOwn(other, a.idHash), false);
    assert.ok(await s.sessions.findByIdHash(a.idHash));
    assert.equal(await s.sessions.deleteOwn(uid, a.idHash), true);
    assert.equal(await s.sessions.deleteOwn(uid, a.idHash), false);
    assert.equal(await s.sessions.deleteAllOf(uid, b.idHash), 1);
    assert.ok(await s.sessions.findByIdHash(b.idHash));
    assert.equal(await s.sessions.findByIdHash(c.idHash), undefined);
    await s.sessions.delete(b.idHash);
    assert.equal(await s.sessions.findByIdHash(b.idHash), undefined);
  },

  "deleteExpired deletes the sessions expiring at or before now": async (s) => {
    const uid = await s.user();
    // No other case writes a session expiring this early, so the count is exact.
    const [at, after] = [session(s, uid, { expiresAt: 500 }), session(s, uid, { expiresAt: 501 })];
    await s.sessions.insert(at);
    await s.sessions.insert(after);
    assert.equal(await s.sessions.deleteExpired(500), 1);
    assert.equal(await s.sessions.findByIdHash(at.idHash), undefined);
    assert.ok(await s.sessions.findByIdHash(after.idHash));
  },

  "a user's deletion deletes their sessions": async (s) => {
    const uid = await s.user();
    const written = session(s, uid);
    await s.sessions.insert(written);
    await s.users.delete(uid, 1);
    assert.equal(await s.sessions.findByIdHash(written.idHash), undefined);
  },
};
