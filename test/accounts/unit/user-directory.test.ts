import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EndedSessions, User, UserInsertOutcome } from "../../../src/accounts/ports.js";
import { UserDirectory } from "../../../src/accounts/users.js";
import { ManualClock } from "../../../src/clock.js";
import { refused } from "../../../src/refusal.js";
import { MemoryUserStore } from "../../support/memory/accounts-users.js";
import { RecordedTrail } from "../../support/memory/audit-trail.js";
import { blankUser, memoryStores } from "../../support/memory/index.js";
import type { MemoryTables } from "../../support/memory/tables.js";
import { accepted, assertRefused } from "../../support/results.js";

/** A user store where another write lands just before each insert: what a lost race looks like. */
class RacedUserStore extends MemoryUserStore {
  constructor(
    tables: MemoryTables,
    private readonly concurrent: (store: MemoryUserStore) => Promise<void>,
  ) {
    super(tables);
  }

  override async insert(
    user: User,
    passwordHash: string | null,
    options: { reuseDeletedUid: boolean },
  ): Promise<UserInsertOutcome> {
    await this.concurrent(new MemoryUserStore(this.tables));
    return super.insert(user, passwordHash, options);
  }
}

function setup() {
  const stores = memoryStores();
  const clock = new ManualClock(1_800_000_000);
  const trail = new RecordedTrail();
  const ended: EndedSessions[] = [];
  const observers = [{ sessionsEnded: async (e: EndedSessions) => void ended.push(e) }];
  const users = new UserDirectory(stores.users, stores.sessions, clock, observers, trail);
  const session = (uid: string, idHash: string) =>
    stores.sessions.insert({
      idHash,
      uid,
      csrfToken: "c",
      createdAt: 1,
      expiresAt: 2_000_000_000,
      userAgent: null,
      lastSeenAt: 1,
    });
  return { stores, clock, trail, ended, users, observers, session };
}

describe("accounts: the rules of the user directory, on memory stores", () => {
  it("a create that loses the race for its uid answers uid_taken, not the store's error", async () => {
    const { stores, clock } = setup();
    const raced = new RacedUserStore(stores.tables, async (other) => {
      await other.insert(blankUser("alice"), null, { reuseDeletedUid: false });
    });
    const users = new UserDirectory(raced, stores.sessions, clock);
    assertRefused(await users.create({ uid: "alice" }), "uid_taken");
  });

  it("a create that loses the race for its address answers email_taken", async () => {
    const { stores, clock } = setup();
    const raced = new RacedUserStore(stores.tables, async (other) => {
      await other.insert({ ...blankUser("bob"), email: "Shared@example.com" }, null, { reuseDeletedUid: false });
    });
    const users = new UserDirectory(raced, stores.sessions, clock);
    assertRefused(await users.create({ uid: "alice", email: "shared@example.com" }), "email_taken");
    assert.equal(await stores.users.find("alice"), undefined);
  });

  it("disabling a user ends every session of theirs and tells the observers; enabling ends none", async () => {
    const { users, stores, ended, session, trail } = setup();
    accepted(await users.create({ uid: "alice" }));
    accepted(await users.create({ uid: "bob" }));
    await session("alice", "a1");
    await session("alice", "a2");
    await session("bob", "b1");
    accepted(await users.setEnabled("alice", false));
    assert.deepEqual(await stores.sessions.listLiveOf("alice", 0), []);
    assert.equal((await stores.sessions.listLiveOf("bob", 0)).length, 1);
    assert.deepEqual(ended, [{ uid: "alice" }]);
    accepted(await users.setEnabled("alice", true));
    assert.deepEqual(ended, [{ uid: "alice" }]);
    assert.deepEqual(trail.kinds(), ["user.created", "user.created", "user.disabled", "user.enabled"]);
  });

  it("a removal guard's refusal stops a disable or a delete before anything is written", async () => {
    const { stores, clock, trail, ended, observers, session } = setup();
    const users = new UserDirectory(stores.users, stores.sessions, clock, observers, trail, {
      removalGuard: async (uid) =>
        refused("protected", { key: "groups:lastAdmin", values: { uid } }, { message: `${uid} is protected` }),
    });
    accepted(await users.create({ uid: "alice" }));
    await session("alice", "a1");
    assert.match(assertRefused(await users.setEnabled("alice", false), "protected").message, /alice is protected/);
    assert.match(assertRefused(await users.delete("alice"), "protected").message, /alice is protected/);
    assert.equal((await stores.users.find("alice"))?.enabled, true);
    assert.equal((await stores.sessions.listLiveOf("alice", 0)).length, 1);
    assert.deepEqual(ended, []);
    accepted(await users.setEnabled("alice", true));
  });

  it("deleting tells the observers the user's sessions ended; an unknown user is no_such_user and tells nobody", async () => {
    const { users, ended, stores, session } = setup();
    assertRefused(await users.delete("nobody"), "no_such_user");
    assert.deepEqual(ended, []);
    accepted(await users.create({ uid: "alice" }));
    await session("alice", "a1");
    accepted(await users.delete("alice"));
    assert.deepEqual(ended, [{ uid: "alice" }]);
    assert.equal(await stores.sessions.findByIdHash("a1"), undefined);
    assertRefused(await users.create({ uid: "alice" }), "uid_of_deleted_user");
  });

  it("a profile save that changes nothing writes and records nothing; a changed address is unverified", async () => {
    const { users, trail, stores } = setup();
    accepted(await users.create({ uid: "alice", email: "alice@example.com" }));
    accepted(await users.updateProfile("alice", { email: "alice@example.com", emailVerified: true }));
    assert.equal((await stores.users.find("alice"))?.emailVerified, true);
    accepted(await users.updateProfile("alice", { email: "alice@example.com" }));
    assert.deepEqual(trail.kinds(), ["user.created", "user.modified"], "an unchanged address is no change");
    accepted(await users.updateProfile("alice", { email: "new@example.com" }));
    assert.equal((await stores.users.find("alice"))?.emailVerified, false);
    accepted(await users.updateProfile("alice", { email: "", emailVerified: true }));
    const cleared = await stores.users.find("alice");
    assert.deepEqual([cleared?.email, cleared?.emailVerified], [null, false], "no address is never verified");
  });
});
