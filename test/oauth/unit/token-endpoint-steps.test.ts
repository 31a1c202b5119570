import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type {
  GrantStore,
  IdTokenMinter,
  OAuthClient,
  PendingSettlement,
  ReadAhead,
  ReadAheadPlan,
  TokenGate,
  TokenGateReservation,
} from "../../../src/oauth/ports.js";
import { handleTokenRequest, type TokenAnswer, type TokenPacing } from "../../../src/oauth/token-endpoint.js";
import type { ThrottleBucket } from "../../../src/security/domain/throttle-policy.js";
import {
  basicHeader,
  clientStore,
  FakeGrants,
  grantDeps,
  issued,
  NOW,
  REDIRECT_URI,
  refused,
  tokenRequest,
  WEB,
} from "./fakes.js";

/**
 * The token endpoint's steps (src/oauth/token-endpoint.ts) on an in-memory gate and grant store:
 * what the reservation reads is what the checks use, the settlement goes with the write that issues
 * the tokens or through the gate, and a refused or failing attempt ends as the throttle requires.
 */

const BUCKETS: ThrottleBucket[] = [{ key: "oauth:ip:192.0.2.1", shared: true }];

/** A gate over the fake grants' codes and the given clients, keeping what it was asked. */
class FakeGate implements TokenGate {
  readonly calls: string[] = [];
  readonly settled: PendingSettlement[] = [];
  constructor(
    private readonly grants: FakeGrants,
    private readonly clients: OAuthClient[],
    private readonly reservation: { refusedFor?: number; delayMs?: number } = {},
  ) {}

  async reserve(_buckets: ThrottleBucket[], plan: ReadAheadPlan | undefined): Promise<TokenGateReservation> {
    this.calls.push("reserve");
    const { refusedFor, delayMs = 0 } = this.reservation;
    if (refusedFor !== undefined) return { admitted: false, retryAfterSeconds: refusedFor };
    return { admitted: true, delayMs, readAhead: plan && this.found(plan) };
  }

  async read(plan: ReadAheadPlan): Promise<ReadAhead> {
    this.calls.push("read");
    return this.found(plan);
  }

  async settle(pending: PendingSettlement): Promise<void> {
    this.settled.push(pending);
  }

  private found(plan: ReadAheadPlan): ReadAhead {
    const client = this.clients.find((c) => c.clientId === plan.clientId);
    const ahead: ReadAhead = { clientId: plan.clientId, client };
    if (client && "codeHash" in plan) ahead.code = { hash: plan.codeHash, record: this.grants.codes.get(plan.codeHash) };
    return ahead;
  }
}

/** A pacing that records instead of waiting. */
function pacing(): TokenPacing & { events: string[] } {
  const events: string[] = [];
  return {
    events,
    refused: () => events.push("refused"),
    delay: async (ms) => {
      events.push(`delay ${ms}`);
    },
    releaseFailed: () => events.push("release failed"),
  };
}

/** The settlements the store's writes were handed, by watching the fake grant store's two writes. */
function watchedWrites(grants: FakeGrants): { store: GrantStore; settles: (PendingSettlement | undefined)[] } {
  const settles: (PendingSettlement | undefined)[] = [];
  const store = grants.store;
  const redeem = store.redeemCode.bind(store);
  store.redeemCode = (hash, now, tokens, options) => {
    settles.push(options?.settle);
    return redeem(hash, now, tokens, options);
  };
  return { store, settles };
}

function run(gate: FakeGate, grants: FakeGrants, body: Record<string, unknown>, secret = WEB.secret, store?: GrantStore) {
  const steps = pacing();
  const deps = {
    gate,
    clients: clientStore(WEB),
    clock: { nowSeconds: () => NOW },
    grantDeps: () => grantDeps(grants, store ? { grants: store } : {}),
  };
  const request = tokenRequest(body, basicHeader(WEB.clientId, secret as string));
  return { steps, answer: handleTokenRequest(deps, request, BUCKETS, steps) };
}

function value(answer: TokenAnswer): unknown {
  assert.equal(answer.refused, false);
  return (answer as { value: unknown }).value;
}

describe("the token endpoint's steps", () => {
  it("a code exchange: the code read with the reservation is the one redeemed, and its write carries the success's settlement", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB);
    const gate = new FakeGate(grants, [WEB]);
    const writes = watchedWrites(grants);
    const { answer } = run(
      gate,
      grants,
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI },
      WEB.secret,
      writes.store,
    );
    issued(value(await answer));
    assert.deepEqual(gate.calls, ["reserve"]);
    assert.ok(!grants.calls.includes("findCode"), "the code came from the reservation's read");
    assert.deepEqual(writes.settles, [
      { keys: ["oauth:ip:192.0.2.1"], settlement: { kind: "success", resetKeys: ["oauth:ip:192.0.2.1"] }, now: NOW },
    ]);
    assert.deepEqual(gate.settled, [], "the write settled it: the gate does not settle again");
  });

  it("refused: 429 with the gate's Retry-After, and nothing is checked or settled", async () => {
    const grants = new FakeGrants();
    const gate = new FakeGate(grants, [WEB], { refusedFor: 30 });
    const { steps, answer } = run(gate, grants, { grant_type: "authorization_code", code: "x", redirect_uri: REDIRECT_URI });
    assert.deepEqual(await answer, { refused: true, retryAfterSeconds: 30 });
    assert.deepEqual(steps.events, ["refused"]);
    assert.deepEqual(grants.calls, []);
    assert.deepEqual(gate.settled, []);
  });

  it("a wrong secret is a guess: settled through the gate as a failure", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB);
    const gate = new FakeGate(grants, [WEB]);
    const { answer } = run(gate, grants, { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI }, "wrong");
    assert.equal(refused(value(await answer)).code, "invalid_client");
    assert.deepEqual(
      gate.settled.map((p) => p.settlement),
      [{ kind: "failure" }],
    );
  });

  it("a request without grant_type is still reserved, then released uncounted", async () => {
    const grants = new FakeGrants();
    const gate = new FakeGate(grants, [WEB]);
    const { answer } = run(gate, grants, {});
    assert.equal(refused(value(await answer)).code, "invalid_request");
    assert.deepEqual(gate.calls, ["reserve"]);
    assert.deepEqual(
      gate.settled.map((p) => p.settlement),
      [{ kind: "release" }],
    );
  });

  it("after a delay the read is made again (the reservation's may be stale)", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB);
    const gate = new FakeGate(grants, [WEB], { delayMs: 250 });
    const { steps, answer } = run(gate, grants, { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI });
    issued(value(await answer));
    assert.deepEqual(steps.events, ["delay 250"]);
    assert.deepEqual(gate.calls, ["reserve", "read"]);
  });

  it("a step that throws gives the reservation back, and its error is the one reported", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB, { scope: "openid" });
    const gate = new FakeGate(grants, [WEB]);
    const failing: IdTokenMinter = {
      mint: async () => {
        throw new Error("no signing key");
      },
    };
    const steps = pacing();
    const deps = {
      gate,
      clients: clientStore(WEB),
      clock: { nowSeconds: () => NOW },
      grantDeps: () => grantDeps(grants, { idTokens: failing }),
    };
    const request = {
      ...tokenRequest(
        { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI },
        basicHeader(WEB.clientId, WEB.secret as string),
      ),
      origin: { issuer: "https://id.example", baseUrl: "https://id.example" },
    };
    await assert.rejects(handleTokenRequest(deps, request, BUCKETS, steps), /no signing key/);
    assert.deepEqual(
      gate.settled.map((p) => p.settlement),
      [{ kind: "release" }],
    );
  });
});
