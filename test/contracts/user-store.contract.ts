import assert from "node:assert/strict";
import type { User } from "../../src/accounts/ports.js";
import type { Contract } from "./harness.js";

function user(uid: string, overrides: Partial<User> = {}): User {
  return {
    uid,
    displayName: `User ${uid}`,
    email: null,
    emailVerified: false,
    enabled: true,
    isAdmin: false,
    createdAt: 1_800_000_000,
    language: null,
    timeZone: null,
    ...overrides,
  };
}

const keep = { reuseDeletedUid: false };

/** accounts/ports.ts UserStore, case by case. */
export const userStoreContract: Contract = {
  "an inserted user reads back field for field, with its password hash; an absent one is undefined": async (s) => {
    const uid = s.unique("rt");
    const written = user(uid, { email: `${uid}@example.com`, emailVerified: true, language: "de", timeZone: "Europe/Berlin" });
    assert.equal(await s.users.insert(written, "argon-hash", keep), "inserted");
    assert.deepEqual(await s.users.find(uid), written);
    assert.deepEqual(await s.users.findWithPasswordHash(uid), { user: written, passwordHash: "argon-hash" });
    assert.deepEqual(await s.users.findListing(uid), { ...written, lastLoginAt: null });
    const absent = s.unique("absent");
    assert.equal(await s.users.find(absent), undefined);
    assert.equal(await s.users.findWithPasswordHash(absent), undefined);
    assert.equal(await s.users.findListing(absent), undefined);
  },

  "insert rejects a uid that exists, and an address another user holds in any case, writing nothing": async (s) => {
    const uid = s.unique("dup");
    await s.users.insert(user(uid, { displayName: "Original", email: `${uid}@Example.com` }), null, keep);
    await assert.rejects(s.users.insert(user(uid, { displayName: "Copy" }), null, keep));
    assert.equal((await s.users.find(uid))?.displayName, "Original");
    const other = s.unique("other");
    await assert.rejects(s.users.insert(user(other, { email: `${uid.toUpperCase()}@example.COM` }), null, keep));
    assert.equal(await s.users.find(other), undefined);
  },

  "emailHolder finds the holder of an address key, except the uid named": async (s) => {
    const uid = s.unique("holder");
    await s.users.insert(user(uid, { email: `${uid}@Example.com` }), null, keep);
    const key = `${uid}@example.com`;
    assert.equal(await s.users.emailHolder(key), uid);
    assert.equal(await s.users.emailHolder(key, uid), undefined);
    assert.equal(await s.users.emailHolder(`${s.unique("nobody")}@example.com`), undefined);
  },

  "delete records the uid as deleted: inserting it again writes nothing unless reuse is asked": async (s) => {
    const uid = await s.user();
    assert.equal(await s.users.delete(uid, 5), true);
    assert.equal(await s.users.find(uid), undefined);
    assert.equal(await s.users.delete(uid, 6), false, "no such user any more");
    assert.equal(await s.users.insert(user(uid), null, keep), "uid_of_deleted_user");
    assert.equal(await s.users.find(uid), undefined);
    assert.equal(await s.users.insert(user(uid), null, { reuseDeletedUid: true }), "inserted");
    assert.ok(await s.users.find(uid));
    assert.equal(await s.users.delete(s.unique("never"), 7), false);
  },

  "search matches uid, display name or address without regard to case, % and _ as themselves, by uid, paged, with the total":
    async (s) => {
      const p = s.unique("srch");
      await s.users.insert(user(`${p}c`), null, keep);
      await s.users.insert(user(`${s.unique("x")}`, { displayName: `Named ${p.toUpperCase()}` }), null, keep);
      await s.users.insert(user(`${p}a`), null, keep);
      await s.users.insert(user(s.unique("y"), { email: `${p}@mail.example` }), null, keep);
      const all = await s.users.search({ text: ` ${p.toUpperCase()} `, limit: 10, offset: 0 });
      assert.equal(all.total, 4);
      const uids = all.users.map((u) => u.uid);
      assert.deepEqual(uids, [...uids].sort(), "ordered by uid");
      const page = await s.users.search({ text: p, limit: 2, offset: 1 });
      assert.equal(page.total, 4);
      assert.deepEqual(
        page.users.map((u) => u.uid),
        uids.slice(1, 3),
      );
      assert.equal((await s.users.search({ text: `${p}_`, limit: 10, offset: 0 })).total, 0, "_ is not a wildcard");
      assert.equal((await s.users.search({ text: `${p}%`, limit: 10, offset: 0 })).total, 0, "% is not a wildcard");
      const everyone = await s.users.search({ limit: 1000, offset: 0 });
      assert.equal(everyone.total, await s.users.count());
    },

  "list is ordered by uid and count counts every user": async (s) => {
    const before = await s.users.count();
    const p = s.unique("lst");
    await s.user({ uid: `${p}b` });
    await s.user({ uid: `${p}a` });
    assert.equal(await s.users.count(), before + 2);
    const uids = (await s.users.list()).map((u) => u.uid);
    assert.equal(uids.length, before + 2);
    assert.deepEqual(uids, [...uids].sort());
  },

  "setPasswordHash and setEnabled change the user, and change nothing for a uid without a row": async (s) => {
    const uid = await s.user();
    await s.users.setPasswordHash(uid, "new-hash");
    await s.users.setEnabled(uid, false);
    const read = await s.users.findWithPasswordHash(uid);
    assert.equal(read?.passwordHash, "new-hash");
    assert.equal(read?.user.enabled, false);
    const absent = s.unique("absent");
    await s.users.setPasswordHash(absent, "x");
    await s.users.setEnabled(absent, true);
    assert.equal(await s.users.find(absent), undefined);
  },

  "updateProfile: a new address is unverified unless said, verification alone is kept, null clears": async (s) => {
    const uid = await s.user({ email: null });
    await s.users.updateProfile(uid, { email: `${uid}@example.com`, emailVerified: true });
    assert.deepEqual(
      { email: (await s.users.find(uid))?.email, verified: (await s.users.find(uid))?.emailVerified },
      { email: `${uid}@example.com`, verified: true },
    );
    await s.users.updateProfile(uid, { email: `${uid}@example.org` });
    assert.equal((await s.users.find(uid))?.emailVerified, false, "a changed address is unverified");
    await s.users.updateProfile(uid, { emailVerified: true });
    assert.equal((await s.users.find(uid))?.emailVerified, true);
    await s.users.updateProfile(uid, { displayName: "Renamed" });
    const renamed = await s.users.find(uid);
    assert.deepEqual([renamed?.displayName, renamed?.email, renamed?.emailVerified], ["Renamed", `${uid}@example.org`, true]);
    await s.users.updateProfile(uid, { email: null });
    assert.equal((await s.users.find(uid))?.email, null);
    assert.equal(await s.users.emailHolder(`${uid}@example.org`), undefined, "the cleared address is free");
  },

  "updateProfile rejects an address another user holds and changes nothing": async (s) => {
    const holder = await s.user();
    await s.users.updateProfile(holder, { email: `${holder}@example.com` });
    const uid = await s.user({ displayName: "Before" });
    await assert.rejects(s.users.updateProfile(uid, { displayName: "After", email: `${holder.toUpperCase()}@EXAMPLE.com` }));
    const unchanged = await s.users.find(uid);
    assert.deepEqual([unchanged?.displayName, unchanged?.email], ["Before", null]);
  },
};
