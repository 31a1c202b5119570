import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import { createAppOn, createTestApp, type TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

/**
 * The login throttle lives in the database, so two nodes (two app instances with their own
 * connections to the same storage) see one count: per IP and per user.
 */
describe("login throttle across nodes", () => {
  let nodeA: TestApp;
  let secondStorage: Storage;
  let nodeB: Awaited<ReturnType<typeof createAppOn>>;

  before(async () => {
    nodeA = await createTestApp();
    secondStorage = openStorage({ databaseUrl: nodeA.testStorage.databaseUrl, dataDir: nodeA.testStorage.dataDir });
    nodeB = await createAppOn(secondStorage, nodeA.testStorage.dataDir, nodeA.clock);
    for (const uid of ["alice", "bob", "carol", "dave"]) {
      accepted(await nodeA.services.users.create({ uid, password: `${uid} password` }));
    }
  });
  after(async () => {
    await nodeB.app.close();
    await secondStorage.close();
    await nodeA.close();
  });

  it("failures for a user on node A delay that user's next attempt on node B, from any address", async () => {
    for (let i = 0; i < 3; i++) await new FormClient(nodeA.app, `192.0.2.${10 + i}`).login("alice", "wrong");
    nodeB.sleeps.length = 0;
    const response = await new FormClient(nodeB.app, "192.0.2.99").login("alice", "alice password");
    assert.equal(response.statusCode, 303);
    assert.deepEqual(nodeB.sleeps, [800], "three failures elsewhere: 200 · 2² ms");
  });

  it("failures from one address on node A delay any user's attempt from that address on node B", async () => {
    const ip = "203.0.113.5";
    await new FormClient(nodeA.app, ip).login("bob", "wrong");
    await new FormClient(nodeA.app, ip).login("carol", "wrong");
    nodeB.sleeps.length = 0;
    await new FormClient(nodeB.app, ip).login("dave", "dave password");
    assert.deepEqual(nodeB.sleeps, [400], "two failures from this address");
    nodeB.sleeps.length = 0;
    await new FormClient(nodeB.app, "203.0.113.6").login("dave", "dave password");
    assert.deepEqual(nodeB.sleeps, [], "another address and an unthrottled user owe nothing");
  });

  it("the delay is capped and old failures are forgotten (the clock decides)", async () => {
    const ip = "198.51.100.77";
    for (let i = 0; i < 10; i++) await new FormClient(nodeA.app, ip).login("nobody", "wrong");
    nodeB.sleeps.length = 0;
    await new FormClient(nodeB.app, ip).login("nobody", "wrong");
    assert.deepEqual(nodeB.sleeps, [25_000], "capped at 25 s");
    nodeA.clock.advance(12 * 3600 + 1);
    nodeB.sleeps.length = 0;
    await new FormClient(nodeB.app, ip).login("nobody", "wrong");
    assert.deepEqual(nodeB.sleeps, [], "failures older than 12 h no longer count");
    nodeA.sleeps.length = 0;
    await new FormClient(nodeA.app, ip).login("nobody", "wrong");
    assert.deepEqual(nodeA.sleeps, [200], "the count restarted at one");
  });
});
