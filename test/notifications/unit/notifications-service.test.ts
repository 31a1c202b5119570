import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ManualClock } from "../../../src/clock.js";
import { NAME_PARAM_MAX } from "../../../src/notifications/domain/kinds.js";
import { EXPIRE_DAYS, KEEP_PER_USER, LIST_LIMIT, Notifications } from "../../../src/notifications/service.js";
import { addUsers, memoryStores } from "../../support/memory/index.js";
import { MemoryNotificationStore, MemoryNotificationSwitchStore } from "../../support/memory/notifications.js";

async function setup(store?: MemoryNotificationStore) {
  const stores = memoryStores();
  await addUsers(stores, "alice", "bob");
  const clock = new ManualClock(1_800_000_000);
  const changed: string[] = [];
  const failed: string[] = [];
  const notifications = new Notifications(store ?? stores.notifications, new MemoryNotificationSwitchStore(), clock, {
    changed: async (uid) => {
      changed.push(uid);
    },
    failed: (_error, kind) => failed.push(kind),
  });
  return { stores, clock, notifications, changed, failed };
}

describe("notifications: the rules of the Notifications service, on memory stores", () => {
  it("a security notification names what it is about, cut to the parameter's limit, and tells push", async () => {
    const { notifications, changed } = await setup();
    await notifications.appPasswordCreated("alice", "x".repeat(NAME_PARAM_MAX + 10));
    const [stored] = await notifications.newest("alice");
    assert.equal(stored?.kind, "app_password_created");
    assert.equal(stored?.params.name, "x".repeat(NAME_PARAM_MAX));
    assert.deepEqual(changed, ["alice"]);
  });

  it("a kind the user switched off is not created; the other kinds still are", async () => {
    const { notifications } = await setup();
    const switches = await notifications.switches("alice");
    assert.ok(
      Object.values(switches).every((on) => on),
      "every switch is on until switched off",
    );
    await notifications.setSwitches("alice", { ...switches, app_password: false });
    assert.equal((await notifications.switches("alice")).app_password, false);
    await notifications.appPasswordCreated("alice", "Laptop");
    await notifications.passwordChanged("alice");
    assert.deepEqual(
      (await notifications.newest("alice")).map((n) => n.kind),
      ["password_changed"],
    );
  });

  it("a security notification that cannot be written is reported and never fails its cause", async () => {
    class FailingStore extends MemoryNotificationStore {
      override async insert(): Promise<number> {
        throw new Error("disk full");
      }
    }
    const { stores } = await setup();
    const { notifications, failed, changed } = await setup(new FailingStore(stores.tables));
    await notifications.secondFactorChanged("alice", "totp", "added");
    assert.deepEqual(failed, ["second_factor_added"]);
    assert.deepEqual(changed, [], "nothing was added");
  });

  it("an administrator's message about an object replaces the user's earlier ones about it", async () => {
    const { notifications } = await setup();
    const first = await notifications.adminMessage("alice", { short: "Old", long: "", objectType: "maintenance", objectId: "1" });
    assert.deepEqual(first, { ok: true, id: (first as { id: number }).id, replaced: 0 });
    const second = await notifications.adminMessage("alice", {
      short: "New",
      long: "Details",
      objectType: "maintenance",
      objectId: "1",
    });
    assert.equal(second.ok && second.replaced, 1);
    const listed = await notifications.newest("alice");
    assert.deepEqual(
      listed.map((n) => n.params),
      [{ subject: "New", message: "Details" }],
    );
  });

  it("an administrator's message is refused before anything is written when it breaks a limit", async () => {
    const { notifications, changed } = await setup();
    assert.deepEqual(await notifications.adminMessage("alice", { short: "  ", long: "" }), {
      ok: false,
      refusal: "short_message",
    });
    assert.deepEqual(await notifications.adminMessage("alice", { short: "Hi", long: "", objectType: "x" }), {
      ok: false,
      refusal: "object",
    });
    assert.deepEqual(await notifications.newest("alice"), []);
    assert.deepEqual(changed, []);
  });

  it("dismissing tells push only when something went, and only the owner's", async () => {
    const { notifications, changed } = await setup();
    await notifications.passwordChanged("alice");
    const [mine] = await notifications.newest("alice");
    changed.length = 0;
    assert.equal(await notifications.dismiss("bob", mine?.id ?? 0), false);
    assert.equal(await notifications.dismissAll("bob"), 0);
    assert.deepEqual(changed, []);
    assert.equal(await notifications.dismiss("alice", mine?.id ?? 0), true);
    assert.deepEqual(changed, ["alice"]);
  });

  it("the list is the newest LIST_LIMIT; the cleanup keeps KEEP_PER_USER and nothing past EXPIRE_DAYS", async () => {
    const { notifications, clock } = await setup();
    await notifications.passwordChanged("bob");
    clock.advance(EXPIRE_DAYS * 86_400 + 1);
    for (let i = 0; i < KEEP_PER_USER + 1; i++) await notifications.passwordChanged("alice");
    assert.equal((await notifications.newest("alice")).length, LIST_LIMIT);
    assert.equal(await notifications.purge(), 2, "bob's expired one and alice's oldest beyond the limit");
    assert.deepEqual(await notifications.newest("bob"), []);
  });
});
