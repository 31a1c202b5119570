import assert from "node:assert/strict";
import type { FlowGrant } from "../../src/login-flow/ports.js";
import type { Contract, ContractStores } from "./harness.js";

async function started(s: ContractStores, createdAt = 1000) {
  const tokens = { pollTokenHash: s.unique("poll-"), loginTokenHash: s.unique("login-") };
  await s.loginFlows.insert({ ...tokens, clientName: "Desktop", clientAddress: "192.0.2.1", createdAt });
  return tokens;
}

function grantOf(s: ContractStores, uid: string): FlowGrant {
  return {
    uid,
    loginName: uid,
    appPassword: { uid, name: "Desktop", tokenHash: s.unique("digest-"), createdAt: 1001 },
    sealedAppPassword: "sealed-secret",
  };
}

/** login-flow/ports.ts LoginFlowStore, case by case. */
export const loginFlowStoreContract: Contract = {
  "a started flow is pending while live: found by its login token until its creation is no longer after liveSince": async (s) => {
    const flow = await started(s, 1000);
    assert.deepEqual(await s.loginFlows.findPending(flow.loginTokenHash, 999), {
      clientName: "Desktop",
      startedAt: 1000,
      startedFrom: "192.0.2.1",
    });
    assert.equal(await s.loginFlows.findPending(flow.loginTokenHash, 1000), undefined);
    assert.equal(await s.loginFlows.exists(flow.pollTokenHash), true, "exists, live or not");
  },

  "a grant writes the app password and is polled once: of two polls exactly one gets it": async (s) => {
    const uid = await s.user();
    const flow = await started(s);
    const grant = grantOf(s, uid);
    assert.equal(await s.loginFlows.grant(flow.loginTokenHash, 0, () => grant), true);
    assert.equal((await s.appPasswords.findByTokenHash(grant.appPassword.tokenHash))?.uid, uid);
    assert.equal(await s.loginFlows.findPending(flow.loginTokenHash, 0), undefined, "no longer pending");
    const polls = await Promise.all([s.loginFlows.redeem(flow.pollTokenHash, 0), s.loginFlows.redeem(flow.pollTokenHash, 0)]);
    assert.deepEqual(
      polls.filter((p) => p !== undefined),
      [{ loginName: uid, sealedAppPassword: "sealed-secret" }],
    );
    assert.equal(await s.loginFlows.exists(flow.pollTokenHash), false);
  },

  "a flow is granted or cancelled once; a pending or cancelled flow redeems nothing": async (s) => {
    const uid = await s.user();
    const flow = await started(s);
    assert.equal(await s.loginFlows.redeem(flow.pollTokenHash, 0), undefined, "pending");
    assert.equal(await s.loginFlows.cancel(flow.loginTokenHash, 0), true);
    assert.equal(await s.loginFlows.cancel(flow.loginTokenHash, 0), false);
    assert.equal(await s.loginFlows.grant(flow.loginTokenHash, 0, () => grantOf(s, uid)), false);
    assert.equal(await s.loginFlows.redeem(flow.pollTokenHash, 0), undefined);
  },

  "a grant whose writer throws writes nothing and leaves the flow pending": async (s) => {
    const flow = await started(s);
    await assert.rejects(
      s.loginFlows.grant(flow.loginTokenHash, 0, () => {
        throw new Error("sealing failed");
      }),
      /sealing failed/,
    );
    assert.ok(await s.loginFlows.findPending(flow.loginTokenHash, 0));
  },

  "the purge deletes expired flows and the app passwords granted and never polled, counting both": async (s) => {
    const uid = await s.user();
    const granted = await started(s, 50);
    const grant = grantOf(s, uid);
    await s.loginFlows.grant(granted.loginTokenHash, 0, () => grant);
    const pending = await started(s, 60);
    const live = await started(s, 5000);
    // No other case's flow is this old once the cases before have polled theirs: the count is exact.
    const before = await s.loginFlows.purgeExpired(40);
    assert.equal(before, 0);
    assert.equal(await s.loginFlows.purgeExpired(100), 2, "the unpolled app password and the pending flow");
    assert.equal(await s.appPasswords.findByTokenHash(grant.appPassword.tokenHash), undefined);
    assert.equal(await s.loginFlows.exists(granted.pollTokenHash), false);
    assert.equal(await s.loginFlows.exists(pending.pollTokenHash), false);
    assert.equal(await s.loginFlows.exists(live.pollTokenHash), true);
  },

  "revoking the app password of a granted flow not yet polled ends the flow": async (s) => {
    const uid = await s.user();
    const flow = await started(s);
    await s.loginFlows.grant(flow.loginTokenHash, 0, () => grantOf(s, uid));
    await s.appPasswords.deleteAllOf(uid);
    assert.equal(await s.loginFlows.redeem(flow.pollTokenHash, 0), undefined);
    assert.equal(await s.loginFlows.exists(flow.pollTokenHash), false);
  },
};
