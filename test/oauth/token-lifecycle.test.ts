import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { s256Challenge } from "../../src/oauth/domain/pkce.js";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import { createAppOn, type TestApp } from "../support/app.js";
import { parseHostSetting } from "../support/host-settings.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";
import {
  authorizeUrl,
  basic,
  consent,
  createOAuthTestApp,
  exchangeCode,
  issueCode,
  loggedIn,
  PASSWORD,
  refresh,
  tokenRequest,
  userinfo,
  WEB_CLIENT,
} from "./support.js";

/**
 * issue 5, token lifecycle: refresh-token reuse detection (RFC 9700 §4.14.2) with its grace window,
 * code replay (RFC 6749 §4.1.2), public-client refresh (RFC 6749 §6), and revocation that holds on
 * every node at once. Runs on SQLite, and on PostgreSQL when KEYSTREAM_TEST_DATABASE_URL is set.
 */

type Pair = { access_token: string; refresh_token: string };

const VERIFIER = "lifecycle-verifier-0123456789abcdefghijklmnopqrstuvwxyz";

async function freshPair(t: TestApp): Promise<Pair> {
  const response = await exchangeCode(t, await issueCode(t));
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

async function tableCount(t: TestApp, table: "oauth2_grants" | "oauth2_refresh_grace" | "oauth2_access_tokens"): Promise<number> {
  const rows = await t.services.storage.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .execute();
  return Number(rows[0]?.n ?? 0);
}

describe(`refresh-token reuse detection (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  it("a rotated refresh token presented again revokes the family: the newest access and refresh tokens stop working", async () => {
    const first = await freshPair(t);
    const second = (await refresh(t, first.refresh_token)).json() as Pair;
    const third = (await refresh(t, second.refresh_token)).json() as Pair;
    assert.equal((await userinfo(t, third.access_token)).statusCode, 200);
    const grantsBefore = await tableCount(t, "oauth2_grants");

    const replay = await refresh(t, first.refresh_token);
    assert.equal(replay.statusCode, 400);
    assert.deepEqual(replay.json(), { error: "invalid_grant", error_description: "refresh token does not exist" });
    assert.equal((await userinfo(t, third.access_token)).statusCode, 401, "the newest access token died");
    assert.equal((await refresh(t, third.refresh_token)).statusCode, 400, "the newest refresh token died");
    assert.equal(await tableCount(t, "oauth2_grants"), grantsBefore - 1, "exactly one grant revoked");
  });

  it("reuse revokes only that grant: another authorization of the same user and client lives on", async () => {
    const victim = await freshPair(t);
    const bystander = await freshPair(t);
    await refresh(t, victim.refresh_token);
    await refresh(t, victim.refresh_token);
    assert.equal((await userinfo(t, bystander.access_token)).statusCode, 200);
    assert.equal((await refresh(t, bystander.refresh_token)).statusCode, 200);
  });

  it("the mirall 2.4.2 rule still answers the reuse error with HTTP 200 (and still revokes)", async () => {
    const first = await freshPair(t);
    const second = (await refresh(t, first.refresh_token)).json() as Pair;
    const replay = await refresh(t, first.refresh_token, { "user-agent": "Mozilla/5.0 mirall/2.4.2" });
    assert.equal(replay.statusCode, 200);
    assert.equal(replay.json().error, "invalid_grant");
    assert.equal((await userinfo(t, second.access_token)).statusCode, 401);
  });
});

describe(`oauth2.refresh_reuse_grace (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    t.services.settings.set("oauth2.refresh_reuse_grace", 30);
  });
  after(() => t.close());

  it("the setting defaults to 0 and accepts 0 to 60 seconds only", () => {
    assert.equal(parseHostSetting("oauth2.refresh_reuse_grace", "60").value, 60);
    assert.equal(parseHostSetting("oauth2.refresh_reuse_grace", "0").value, 0);
    assert.throws(() => parseHostSetting("oauth2.refresh_reuse_grace", "61"), /from 0 to 60/);
    assert.throws(() => parseHostSetting("oauth2.refresh_reuse_grace", "-1"), /from 0 to 60/);
  });

  it("a retry within the window gets the same new pair, which keeps working; nothing is revoked", async () => {
    const first = await freshPair(t);
    const rotated = await refresh(t, first.refresh_token);
    assert.equal(rotated.statusCode, 200);
    t.clock.advance(29);
    const retried = await refresh(t, first.refresh_token);
    assert.equal(retried.statusCode, 200, retried.body);
    assert.deepEqual(retried.json(), rotated.json(), "the same body, the same pair");
    const pair = rotated.json() as Pair;
    assert.equal((await userinfo(t, pair.access_token)).statusCode, 200);
    assert.equal((await refresh(t, pair.refresh_token)).statusCode, 200);
  });

  it("the grace pair is stored sealed, never in the clear", async () => {
    const first = await freshPair(t);
    const pair = (await refresh(t, first.refresh_token)).json() as Pair;
    const dump = JSON.stringify(await t.services.storage.db.selectFrom("oauth2_refresh_grace").selectAll().execute());
    assert.ok(dump.includes("v1."), "AES-GCM envelopes are stored");
    assert.ok(!dump.includes(pair.access_token) && !dump.includes(pair.refresh_token));
  });

  it("after the window, the same retry is reuse: the family is revoked", async () => {
    const first = await freshPair(t);
    const pair = (await refresh(t, first.refresh_token)).json() as Pair;
    t.clock.advance(30);
    const late = await refresh(t, first.refresh_token);
    assert.equal(late.statusCode, 400);
    assert.equal(late.json().error, "invalid_grant");
    assert.equal((await userinfo(t, pair.access_token)).statusCode, 401);
  });

  it("once the new refresh token was used, the old one is reuse even within the window", async () => {
    const first = await freshPair(t);
    const second = (await refresh(t, first.refresh_token)).json() as Pair;
    const third = (await refresh(t, second.refresh_token)).json() as Pair;
    const replay = await refresh(t, first.refresh_token);
    assert.equal(replay.statusCode, 400);
    assert.equal((await userinfo(t, third.access_token)).statusCode, 401);
  });

  it("the grace pair of a disabled user is refused like a refresh (unauthorized_client)", async () => {
    accepted(await t.services.users.create({ uid: "dora", password: "dora password!" }));
    const browser = await loggedIn(t, "dora", "dora password!");
    const code = new URL(await consent(browser, authorizeUrl(WEB_CLIENT))).searchParams.get("code") as string;
    const first = (await exchangeCode(t, code)).json() as Pair;
    assert.equal((await refresh(t, first.refresh_token)).statusCode, 200);
    accepted(await t.services.users.setEnabled("dora", false));
    const retried = await refresh(t, first.refresh_token);
    assert.deepEqual(retried.json(), { error: "unauthorized_client", error_description: "user not enabled" });
  });

  it("grace pairs are purged once their window closed (job oauth2:grace-purge, and the cleanup)", async () => {
    const first = await freshPair(t);
    await refresh(t, first.refresh_token);
    assert.ok((await tableCount(t, "oauth2_refresh_grace")) > 0);
    t.clock.advance(31);
    await t.services.oauth.purgeGracePairs();
    assert.equal(await tableCount(t, "oauth2_refresh_grace"), 0);
    const second = await freshPair(t);
    await refresh(t, second.refresh_token);
    t.clock.advance(31);
    await t.services.oauth.cleanup();
    assert.equal(await tableCount(t, "oauth2_refresh_grace"), 0);
  });

  it("with the window at 0 nothing is kept", async () => {
    t.services.settings.set("oauth2.refresh_reuse_grace", 0);
    try {
      await t.services.oauth.purgeGracePairs();
      t.clock.advance(61);
      await t.services.oauth.purgeGracePairs();
      const first = await freshPair(t);
      await refresh(t, first.refresh_token);
      assert.equal(await tableCount(t, "oauth2_refresh_grace"), 0);
    } finally {
      t.services.settings.set("oauth2.refresh_reuse_grace", 30);
    }
  });
});

describe(`authorization-code replay (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  it("a second redemption revokes the tokens issued from the code, and those of their rotations", async () => {
    const code = await issueCode(t);
    const first = (await exchangeCode(t, code)).json() as Pair;
    const rotated = (await refresh(t, first.refresh_token)).json() as Pair;
    const replay = await exchangeCode(t, code);
    assert.equal(replay.statusCode, 400);
    assert.deepEqual(replay.json(), { error: "invalid_grant", error_description: "authorization code does not exist" });
    assert.equal((await userinfo(t, rotated.access_token)).statusCode, 401);
    assert.equal((await refresh(t, rotated.refresh_token)).statusCode, 400);
  });

  it("a failed first attempt (wrong verifier) burns nothing; the real redemption then works", async () => {
    const code = await issueCode(t, WEB_CLIENT, { code_challenge: s256Challenge(VERIFIER), code_challenge_method: "S256" });
    assert.equal((await exchangeCode(t, code, { code_verifier: `${VERIFIER}x` })).statusCode, 400);
    assert.equal((await exchangeCode(t, code, { code_verifier: VERIFIER })).statusCode, 200);
  });
});

describe(`public clients refresh with client_id alone (RFC 6749 §6) (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  const publicRedemption = async (): Promise<Pair> => {
    const code = await issueCode(t, WEB_CLIENT, { code_challenge: s256Challenge(VERIFIER), code_challenge_method: "S256" });
    const response = await tokenRequest(t, {
      grant_type: "authorization_code",
      code,
      redirect_uri: WEB_CLIENT.redirectUri,
      client_id: WEB_CLIENT.clientId,
      code_verifier: VERIFIER,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };

  it("a grant redeemed with PKCE and no secret refreshes with client_id alone, again and again", async () => {
    const first = await publicRedemption();
    const second = await tokenRequest(t, {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      client_id: WEB_CLIENT.clientId,
    });
    assert.equal(second.statusCode, 200, second.body);
    const third = await tokenRequest(t, {
      grant_type: "refresh_token",
      refresh_token: second.json().refresh_token,
      client_id: WEB_CLIENT.clientId,
    });
    assert.equal(third.statusCode, 200, third.body);
  });

  it("a grant obtained with the client secret still needs the secret to refresh", async () => {
    const confidential = await freshPair(t);
    const response = await tokenRequest(t, {
      grant_type: "refresh_token",
      refresh_token: confidential.refresh_token,
      client_id: WEB_CLIENT.clientId,
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { error: "invalid_client" });
    assert.equal((await refresh(t, confidential.refresh_token)).statusCode, 200, "with Basic it still works");
  });

  it("client_id alone cannot redeem a code: a code with a challenge needs the verifier, one without needs the secret", async () => {
    const withChallenge = await issueCode(t, WEB_CLIENT, {
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: "S256",
    });
    const withoutChallenge = await issueCode(t);
    const expected = [
      { status: 400, body: { error: "invalid_grant", error_description: "code verifier invalid" } },
      { status: 401, body: { error: "invalid_client" } },
    ];
    for (const [index, code] of [withChallenge, withoutChallenge].entries()) {
      const response = await tokenRequest(t, {
        grant_type: "authorization_code",
        code,
        redirect_uri: WEB_CLIENT.redirectUri,
        client_id: WEB_CLIENT.clientId,
      });
      assert.equal(response.statusCode, expected[index]?.status);
      assert.deepEqual(response.json(), expected[index]?.body);
    }
  });

  it("the desktop client's path is unchanged: Basic plus client_id and client_secret in the body, PKCE on the code", async () => {
    const code = await issueCode(t, WEB_CLIENT, { code_challenge: s256Challenge(VERIFIER), code_challenge_method: "S256" });
    const credentials = {
      client_id: WEB_CLIENT.clientId,
      client_secret: WEB_CLIENT.secret,
      scope: "openid offline_access email profile",
    };
    const authorization = { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) };
    const token = await tokenRequest(
      t,
      { ...credentials, grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri, code_verifier: VERIFIER },
      authorization,
    );
    assert.equal(token.statusCode, 200, token.body);
    const refreshed = await tokenRequest(
      t,
      { ...credentials, grant_type: "refresh_token", refresh_token: token.json().refresh_token },
      authorization,
    );
    assert.equal(refreshed.statusCode, 200, refreshed.body);
  });
});

describe(`revocation holds on every node at once (${testDatabaseDialect})`, () => {
  let t: TestApp;
  let secondStorage: Storage;
  let nodeB: Awaited<ReturnType<typeof createAppOn>>;

  before(async () => {
    t = await createOAuthTestApp();
    secondStorage = openStorage({ databaseUrl: t.testStorage.databaseUrl, dataDir: t.testStorage.dataDir });
    nodeB = await createAppOn(secondStorage, t.testStorage.dataDir, t.clock);
    for (const uid of ["erin", "frank", "gina"]) accepted(await t.services.users.create({ uid, password: PASSWORD }));
  });
  after(async () => {
    await nodeB.app.close();
    await secondStorage.close();
    await t.close();
  });

  const pairFor = async (uid: string): Promise<Pair> => {
    const browser = await loggedIn(t, uid);
    const code = new URL(await consent(browser, authorizeUrl(WEB_CLIENT))).searchParams.get("code") as string;
    return (await exchangeCode(t, code)).json();
  };
  const onB = (token: string) =>
    nodeB.app.inject({
      method: "GET",
      url: "/index.php/apps/oauth2/api/v1/userinfo",
      headers: { authorization: `Bearer ${token}` },
    });
  const refreshOnB = (token: string) =>
    nodeB.app.inject({
      method: "POST",
      url: "/index.php/apps/oauth2/api/v1/token",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
      },
      payload: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token }).toString(),
    });

  it("a user revoking the client on node A: node B refuses the access and refresh tokens", async () => {
    const pair = await pairFor("erin");
    assert.equal((await onB(pair.access_token)).statusCode, 200);
    const client = await t.services.oauth.clients.list().then((all) => all.find((c) => c.clientId === WEB_CLIENT.clientId));
    assert.ok(client);
    assert.equal(await t.services.oauth.revoke("erin", client.id), true);
    assert.equal((await onB(pair.access_token)).statusCode, 401);
    assert.equal((await refreshOnB(pair.refresh_token)).statusCode, 400);
  });

  it("disabling a user on node A: node B refuses the tokens (userinfo, refresh) and introspection says inactive", async () => {
    const pair = await pairFor("frank");
    assert.equal((await onB(pair.access_token)).statusCode, 200);
    accepted(await t.services.users.setEnabled("frank", false));
    const userinfoB = await onB(pair.access_token);
    assert.equal(userinfoB.statusCode, 401);
    assert.equal(userinfoB.json().error, "invalid_token");
    assert.deepEqual((await refreshOnB(pair.refresh_token)).json(), {
      error: "unauthorized_client",
      error_description: "user not enabled",
    });
    const introspection = await nodeB.app.inject({
      method: "POST",
      url: "/index.php/apps/oauth2/api/v1/introspect",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
      },
      payload: new URLSearchParams({ token: pair.access_token }).toString(),
    });
    assert.deepEqual(introspection.json(), { active: false });
    const activity = await nodeB.app.inject({
      method: "GET",
      url: "/ocs/v2.php/apps/activity/api/v2/activity?format=json",
      headers: { authorization: `Bearer ${pair.access_token}`, "ocs-apirequest": "true" },
    });
    assert.equal(activity.statusCode, 401, "every bearer route goes through the same chain");
  });

  it("deleting a user on node A: node B refuses the tokens", async () => {
    const pair = await pairFor("gina");
    accepted(await t.services.users.delete("gina"));
    assert.equal((await onB(pair.access_token)).statusCode, 401);
    assert.equal((await refreshOnB(pair.refresh_token)).statusCode, 400);
  });

  it("removing the client on node A: node B refuses every token of it", async () => {
    const pair = await pairFor("alice");
    const removed = await t.services.oauth.clients.removeByClientId(WEB_CLIENT.clientId);
    assert.ok(removed.ok);
    assert.equal((await onB(pair.access_token)).statusCode, 401);
    assert.equal(await tableCount(t, "oauth2_access_tokens"), 0);
  });
});
