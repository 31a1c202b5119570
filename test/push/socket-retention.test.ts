import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import v8 from "node:v8";
import vm from "node:vm";
import { createTestApp, type TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { connectAs, listenForPush } from "./support.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

/**
 * True once nothing holds the object any more. Each collection runs in a task of its own: a
 * WeakRef's target read in a task is kept until that task ends (ECMA-262, ClearKeptObjects).
 */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 10; i++) {
    await sleep(10);
    gc();
    await sleep(10);
    if (ref.deref() === undefined) return true;
  }
  return false;
}

describe("push socket memory: an open socket holds only what it needs", () => {
  let t: TestApp;
  let url: string;
  let secret: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
    secret = accepted(await t.services.appPasswords.create("alice", "desktop")).secret;
    url = await listenForPush(t.app);
  });
  after(() => t.close());

  it("lets go of the upgrade request once the socket is authenticated", async () => {
    let upgrade: WeakRef<IncomingMessage> | undefined;
    const remember = (raw: IncomingMessage) => {
      upgrade = new WeakRef(raw);
    };
    t.app.server.on("upgrade", remember);
    try {
      const client = await connectAs(url, "alice", secret);
      assert.equal(await client.next(), "authenticated");
      await client.roundTrip();
      assert.ok(upgrade, "the upgrade was seen");
      assert.equal(await collected(upgrade), true, "the open socket still holds its upgrade request");
      await client.close();
    } finally {
      t.app.server.off("upgrade", remember);
    }
  });
});
