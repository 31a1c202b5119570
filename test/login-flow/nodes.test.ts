import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import { createAppOn, type TestApp } from "../support/app.js";
import { answerGrantPage, createLoginFlowTestApp, loggedIn, ocsUser, poll, startFlow } from "./support.js";

/**
 * Issue 13: flows live in the database, so a deployment of several nodes behind a load balancer
 * serves one flow from any of them (two apps on one SQLite file or one PostgreSQL database).
 */
describe("Login Flow v2 across nodes", () => {
  let nodeA: TestApp;
  let secondStorage: Storage;
  let nodeB: Awaited<ReturnType<typeof createAppOn>>;

  before(async () => {
    nodeA = await createLoginFlowTestApp();
    secondStorage = openStorage({ databaseUrl: nodeA.testStorage.databaseUrl, dataDir: nodeA.testStorage.dataDir });
    nodeB = await createAppOn(secondStorage, nodeA.testStorage.dataDir, nodeA.clock);
  });
  after(async () => {
    await nodeB.app.close();
    await secondStorage.close();
    await nodeA.close();
  });

  it("a flow started on node A, granted on node B, is polled on node A, and its app password works on both", async () => {
    const flow = await startFlow(nodeA.app, "192.0.2.30", "two-nodes");
    assert.equal((await poll(nodeA.app, flow.pollToken)).statusCode, 404);
    const browser = await loggedIn(nodeB.app);
    const granted = await answerGrantPage(browser, flow, "grant");
    assert.equal(granted.statusCode, 200);
    const response = await poll(nodeA.app, flow.pollToken);
    assert.equal(response.statusCode, 200, response.body);
    const { loginName, appPassword } = response.json();
    assert.equal((await poll(nodeB.app, flow.pollToken)).statusCode, 404, "gone for node B too");
    assert.equal((await ocsUser(nodeA.app, loginName, appPassword)).statusCode, 200);
    assert.equal((await ocsUser(nodeB.app, loginName, appPassword)).statusCode, 200);
  });

  it("polls on both nodes at once: exactly one receives the credentials", async () => {
    for (let round = 0; round < 5; round++) {
      const flow = await startFlow(nodeB.app, "192.0.2.31", "two-nodes-race");
      await answerGrantPage(await loggedIn(nodeA.app), flow, "grant");
      const answers = await Promise.all([
        poll(nodeA.app, flow.pollToken, `192.0.2.${40 + round}`),
        poll(nodeB.app, flow.pollToken, `192.0.2.${50 + round}`),
      ]);
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 404], `round ${round}`);
    }
  });

  it("a flow cancelled on node B answers 404 on node A", async () => {
    const flow = await startFlow(nodeA.app, "192.0.2.32", "two-nodes-cancel");
    await answerGrantPage(await loggedIn(nodeB.app), flow, "cancel");
    assert.equal((await poll(nodeA.app, flow.pollToken)).statusCode, 404);
    assert.equal((await (await loggedIn(nodeA.app)).get(flow.loginPath)).statusCode, 404);
  });
});
