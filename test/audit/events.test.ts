import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AUDIT_KINDS, type AuditKind } from "../../src/audit/domain/kinds.js";
import { authorizeUrl, createOAuthTestApp, PASSWORD, refresh, tokenRequest, WEB_CLIENT } from "../oauth/support.js";
import { referenceTotp } from "../second-factor/reference-totp.js";
import type { TestApp } from "../support/app.js";
import { requestTokenOf } from "../support/browser-form.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { AuditBrowser, eventsSince, lastEventId, requestIdOf } from "./support.js";

/**
 * Every audit event kind is written exactly once per occurrence, with who acted (a user, or occ),
 * whom it concerns, and for a request its client address, User-Agent and request id. One test per
 * kind, in an order that builds on the one before (alice signs in, then uses her session).
 */

/** What the one event of a scenario must say. */
interface Expected {
  actor: string;
  uid: string | null;
  subject?: string;
  /** The request that caused it; absent: an occ command (no address, browser or request). */
  via?: { browser: AuditBrowser; requestId: string };
  detail?: Record<string, unknown>;
}

describe("audit events: each kind written once with its fields", () => {
  let t: TestApp;
  let alice: AuditBrowser;
  let root: AuditBrowser;
  let code: string | undefined;
  const occ = (...argv: string[]) => runOccInProcess(argv, t.testStorage);

  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "root", password: "root password!", isAdmin: true }));
    alice = new AuditBrowser(t, "192.0.2.20", "AuditTest/1.0 (alice)");
    root = new AuditBrowser(t, "192.0.2.10", "AuditTest/1.0 (root)");
    assert.equal((await root.login("root", "root password!")).statusCode, 303);
  });
  after(async () => {
    await t.close();
  });

  const scenarios: Array<[AuditKind, () => Promise<Expected>]> = [
    [
      "sign_in.succeeded",
      async () => {
        const response = await alice.login("alice", PASSWORD);
        assert.equal(response.statusCode, 303);
        return {
          actor: "alice",
          uid: "alice",
          subject: "user:alice",
          via: { browser: alice, requestId: requestIdOf(response) },
          detail: { factor: "password" },
        };
      },
    ],
    [
      "sign_in.failed",
      async () => {
        const stranger = new AuditBrowser(t, "192.0.2.66", "AuditTest/1.0 (stranger)");
        const response = await stranger.login("alice", "not the password");
        assert.equal(response.statusCode, 401);
        return {
          actor: "anonymous",
          uid: "alice",
          subject: "user:alice",
          via: { browser: stranger, requestId: requestIdOf(response) },
          detail: { factor: "password", reason: "wrong_credentials" },
        };
      },
    ],
    [
      "app_password.created",
      async () => {
        const requesttoken = await alice.tokenOf("/index.php/settings/personal");
        const response = await alice.post("/index.php/settings/personal/app-passwords", { requesttoken, name: "Laptop" });
        assert.ok(response.statusCode < 400, response.body.slice(0, 300));
        return {
          actor: "alice",
          uid: "alice",
          subject: "app_password:Laptop",
          via: { browser: alice, requestId: requestIdOf(response) },
        };
      },
    ],
    [
      "app_password.revoked",
      async () => {
        const [laptop] = await t.services.appPasswords.list("alice");
        assert.ok(laptop);
        const requesttoken = await alice.tokenOf("/index.php/settings/personal");
        const response = await alice.post(`/index.php/settings/personal/app-passwords/${laptop.id}/revoke`, { requesttoken });
        assert.ok(response.statusCode < 400);
        return {
          actor: "alice",
          uid: "alice",
          subject: `app_password:${laptop.id}`,
          via: { browser: alice, requestId: requestIdOf(response) },
        };
      },
    ],
    [
      "login_flow.granted",
      async () => {
        const started = await t.app.inject({
          method: "POST",
          url: "/index.php/login/v2",
          headers: { "user-agent": "Desktop client" },
        });
        assert.equal(started.statusCode, 200);
        const loginUrl = new URL(started.json().login as string).pathname;
        const page = await alice.get(loginUrl);
        assert.equal(page.statusCode, 200, page.body.slice(0, 300));
        const action = /action="([^"]+\/grant)"/.exec(page.body)?.[1];
        assert.ok(action, "a grant form");
        const response = await alice.post(action.replace(/&amp;/g, "&"), { requesttoken: requestTokenOf(page.body) });
        assert.equal(response.statusCode, 200);
        return {
          actor: "alice",
          uid: "alice",
          subject: "app_password:Desktop client",
          via: { browser: alice, requestId: requestIdOf(response) },
        };
      },
    ],
    [
      "oauth.client_authorized",
      async () => {
        const url = authorizeUrl(WEB_CLIENT, { state: "s" });
        const page = await alice.get(url);
        assert.match(page.body, /id="oauth-consent"/);
        const response = await alice.post(url, { requesttoken: requestTokenOf(page.body) });
        assert.equal(response.statusCode, 303);
        code = new URL(String(response.headers.location)).searchParams.get("code") ?? undefined;
        return {
          actor: "alice",
          uid: "alice",
          subject: `client:${WEB_CLIENT.clientId}`,
          via: { browser: alice, requestId: requestIdOf(response) },
          detail: { name: WEB_CLIENT.name },
        };
      },
    ],
    [
      "oauth.refresh_reuse_detected",
      async () => {
        assert.ok(code);
        const tokens = await tokenRequest(
          t,
          { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri },
          { authorization: `Basic ${Buffer.from(`${WEB_CLIENT.clientId}:${WEB_CLIENT.secret}`).toString("base64")}` },
        );
        assert.equal(tokens.statusCode, 200, tokens.body);
        const first = tokens.json().refresh_token as string;
        assert.equal((await refresh(t, first)).statusCode, 200);
        const client = new AuditBrowser(t, "127.0.0.1", "OAuthClient/2.0");
        const reused = await refresh(t, first, { "user-agent": client.userAgent });
        assert.equal(reused.statusCode, 400);
        return {
          actor: "anonymous",
          uid: "alice",
          subject: `client:${WEB_CLIENT.clientId}`,
          via: { browser: client, requestId: requestIdOf(reused) },
          detail: { revoked: true },
        };
      },
    ],
    [
      "oauth.grant_revoked",
      async () => {
        // A grant to revoke: consent again (the reuse revoked the last one).
        const url = authorizeUrl(WEB_CLIENT, { state: "again" });
        const page = await alice.get(url);
        await alice.post(url, { requesttoken: requestTokenOf(page.body) });
        const id = (await t.services.oauth.findClient(WEB_CLIENT.clientId))?.id;
        const requesttoken = await alice.tokenOf("/index.php/settings/personal");
        const response = await alice.post(`/index.php/apps/oauth2/clients/${id}/revoke`, { requesttoken });
        assert.equal(response.statusCode, 303);
        return {
          actor: "alice",
          uid: "alice",
          subject: `client:${WEB_CLIENT.clientId}`,
          via: { browser: alice, requestId: requestIdOf(response) },
        };
      },
    ],
    [
      "group.created",
      async () => {
        assert.equal((await occ("group:add", "editors")).code, 0);
        return { actor: "occ", uid: null, subject: "group:editors" };
      },
    ],
    [
      "group.member_added",
      async () => {
        assert.equal((await occ("group:add-member", "editors", "--member=root")).code, 0);
        return { actor: "occ", uid: "root", subject: "group:editors" };
      },
    ],
    [
      "oauth.refused_by_group",
      async () => {
        assert.equal((await occ("oauth2:modify-client", WEB_CLIENT.name, "allowed-groups", "editors")).code, 0);
        const response = await alice.get(authorizeUrl(WEB_CLIENT, { state: "groups" }));
        assert.equal(response.statusCode, 303);
        assert.equal(new URL(String(response.headers.location)).searchParams.get("error"), "access_denied");
        assert.equal((await occ("oauth2:modify-client", WEB_CLIENT.name, "allowed-groups", "")).code, 0);
        return {
          actor: "alice",
          uid: "alice",
          subject: `client:${WEB_CLIENT.clientId}`,
          via: { browser: alice, requestId: requestIdOf(response) },
        };
      },
    ],
    [
      "group.member_removed",
      async () => {
        assert.equal((await occ("group:remove-member", "editors", "--member=root")).code, 0);
        return { actor: "occ", uid: "root", subject: "group:editors" };
      },
    ],
    [
      "group.deleted",
      async () => {
        assert.equal((await occ("group:delete", "editors")).code, 0);
        return { actor: "occ", uid: null, subject: "group:editors" };
      },
    ],
    [
      "second_factor.enabled",
      async () => {
        const path = "/index.php/settings/personal/second-factors";
        await alice.post(`${path}/totp/begin`, { requesttoken: await alice.tokenOf("/index.php/settings/personal") });
        const secret = await t.services.totp.pendingSecret("alice");
        assert.ok(secret);
        const requesttoken = await alice.tokenOf("/index.php/settings/personal");
        const response = await alice.post(`${path}/totp/enable`, {
          requesttoken,
          code: referenceTotp(secret, t.clock.nowSeconds()),
        });
        assert.equal(response.statusCode, 200, response.body.slice(0, 300));
        return {
          actor: "alice",
          uid: "alice",
          subject: "factor:totp",
          via: { browser: alice, requestId: requestIdOf(response) },
          detail: { factor: "totp" },
        };
      },
    ],
    [
      "second_factor.disabled",
      async () => {
        const requesttoken = await root.tokenOf("/index.php/settings/admin/users");
        const response = await root.post("/index.php/settings/users/alice/second-factors/totp/disable", { requesttoken });
        assert.ok(response.statusCode < 400, response.body.slice(0, 300));
        return { actor: "root", uid: "alice", subject: "factor:totp", via: { browser: root, requestId: requestIdOf(response) } };
      },
    ],
    [
      "second_factor.enforcement_changed",
      async () => {
        assert.equal((await occ("twofactorauth:enforce", "--on")).code, 0);
        return { actor: "occ", uid: null, subject: "setting:twofactor_enforced", detail: { enforced: true } };
      },
    ],
    [
      "setting.changed",
      async () => {
        // Enforcement off again (its own event), then the setting under test.
        assert.equal((await occ("twofactorauth:enforce", "--off")).code, 0);
        const from = await lastEventId(t);
        assert.equal((await occ("config:system:set", "session.lifetime", "--value=7200")).code, 0);
        const [event] = await eventsSince(t, from, "setting.changed");
        assert.deepEqual(event?.detail, { value: 7200 });
        return { actor: "occ", uid: null, subject: "setting:session.lifetime", detail: { value: 7200 } };
      },
    ],
    [
      "setting.deleted",
      async () => {
        assert.equal((await occ("config:system:delete", "session.lifetime")).code, 0);
        return { actor: "occ", uid: null, subject: "setting:session.lifetime" };
      },
    ],
    [
      "user.created",
      async () => {
        const requesttoken = await root.tokenOf("/index.php/settings/admin/users");
        const response = await root.post("/index.php/settings/users", { requesttoken, uid: "bob", password: "bob's password!" });
        assert.equal(response.statusCode, 303, response.body.slice(0, 300));
        return {
          actor: "root",
          uid: "bob",
          subject: "user:bob",
          via: { browser: root, requestId: requestIdOf(response) },
          detail: { admin: false },
        };
      },
    ],
    [
      "user.promoted",
      async () => {
        const requesttoken = await root.tokenOf("/index.php/settings/admin/users");
        const response = await root.post("/index.php/settings/users/bob/promote", { requesttoken });
        assert.equal(response.statusCode, 303, response.body.slice(0, 300));
        return { actor: "root", uid: "bob", subject: "group:admin", via: { browser: root, requestId: requestIdOf(response) } };
      },
    ],
    [
      "user.demoted",
      async () => {
        assert.equal((await occ("group:remove-member", "admin", "--member=bob")).code, 0);
        return { actor: "occ", uid: "bob", subject: "group:admin" };
      },
    ],
    [
      "user.modified",
      async () => {
        assert.equal((await occ("user:modify", "bob", "displayname", "Bob Builder")).code, 0);
        return { actor: "occ", uid: "bob", subject: "user:bob", detail: { fields: ["displayName"] } };
      },
    ],
    [
      "user.password_changed",
      async () => {
        process.env.OC_PASS = "bob's new password";
        try {
          assert.equal((await occ("user:resetpassword", "bob", "--password-from-env")).code, 0);
        } finally {
          delete process.env.OC_PASS;
        }
        return { actor: "occ", uid: "bob", subject: "user:bob" };
      },
    ],
    [
      "user.disabled",
      async () => {
        assert.equal((await occ("user:disable", "bob")).code, 0);
        return { actor: "occ", uid: "bob", subject: "user:bob" };
      },
    ],
    [
      "user.enabled",
      async () => {
        assert.equal((await occ("user:enable", "bob")).code, 0);
        return { actor: "occ", uid: "bob", subject: "user:bob" };
      },
    ],
    [
      "user.deleted",
      async () => {
        assert.equal((await occ("user:delete", "bob")).code, 0);
        return { actor: "occ", uid: "bob", subject: "user:bob" };
      },
    ],
    [
      "client.added",
      async () => {
        const id = "audit-client-0123456789abcdef0123456789";
        const result = await occ(
          "oauth2:add-client",
          "Audit app",
          id,
          "audit-secret-0123456789abcdef0123456789",
          "https://audit.example/cb",
        );
        assert.equal(result.code, 0, result.err);
        return { actor: "occ", uid: null, subject: `client:${id}`, detail: { name: "Audit app" } };
      },
    ],
    [
      "client.modified",
      async () => {
        assert.equal((await occ("oauth2:modify-client", "Audit app", "redirect-url", "https://audit.example/back")).code, 0);
        return {
          actor: "occ",
          uid: null,
          subject: "client:audit-client-0123456789abcdef0123456789",
          detail: { fields: ["redirect-url"] },
        };
      },
    ],
    [
      "client.secret_regenerated",
      async () => {
        const client = await t.services.oauth.findClient("audit-client-0123456789abcdef0123456789");
        const requesttoken = await root.tokenOf("/index.php/settings/admin/applications");
        const response = await root.post(`/index.php/apps/oauth2/clients/${client?.id}/regenerate-secret`, { requesttoken });
        assert.ok(response.statusCode < 400, response.body.slice(0, 300));
        return {
          actor: "root",
          uid: null,
          subject: "client:audit-client-0123456789abcdef0123456789",
          via: { browser: root, requestId: requestIdOf(response) },
        };
      },
    ],
    [
      "client.deleted",
      async () => {
        assert.equal((await occ("oauth2:remove-client", "audit-client-0123456789abcdef0123456789")).code, 0);
        return { actor: "occ", uid: null, subject: "client:audit-client-0123456789abcdef0123456789" };
      },
    ],
    [
      "throttle.reset",
      async () => {
        const requesttoken = await root.tokenOf("/index.php/settings/admin/security");
        const response = await root.post("/index.php/settings/admin/lockouts/reset", { requesttoken, address: "192.0.2.66" });
        assert.ok(response.statusCode < 400, response.body.slice(0, 300));
        return {
          actor: "root",
          uid: null,
          subject: "address:192.0.2.66",
          via: { browser: root, requestId: requestIdOf(response) },
        };
      },
    ],
    [
      "session.ended",
      async () => {
        const requesttoken = await alice.tokenOf("/index.php/settings/personal");
        const response = await alice.post("/index.php/logout", { requesttoken });
        assert.equal(response.statusCode, 303);
        return {
          actor: "alice",
          uid: "alice",
          subject: "session:logout",
          via: { browser: alice, requestId: requestIdOf(response) },
        };
      },
    ],
  ];

  for (const [kind, run] of scenarios) {
    it(`${kind}: one event, with actor, subject, address, user agent and request id`, async () => {
      const from = await lastEventId(t);
      const expected = await run();
      const events = await eventsSince(t, from, kind);
      assert.equal(events.length, 1, `${kind}: ${JSON.stringify(events)}`);
      const [event] = events;
      assert.ok(event);
      assert.equal(event.actor, expected.actor);
      assert.equal(event.uid, expected.uid);
      if (expected.subject !== undefined) assert.equal(`${event.subjectType}:${event.subject}`, expected.subject);
      assert.equal(event.address, expected.via?.browser.address ?? null);
      assert.equal(event.userAgent, expected.via?.browser.userAgent ?? null);
      assert.equal(event.requestId, expected.via?.requestId ?? null);
      for (const [key, value] of Object.entries(expected.detail ?? {}))
        assert.deepEqual(event.detail?.[key], value, `detail.${key}`);
      // A request's event takes the app's clock; an occ command's, the system clock of its own process.
      const now = expected.via ? t.clock.nowSeconds() : Math.floor(Date.now() / 1000);
      assert.ok(Math.abs(event.at - now) <= 5, `at ${event.at}, now ${now}`);
    });
  }

  it("a host setting changed and reset on the console is one event each, by the administrator", async () => {
    const from = await lastEventId(t);
    const requesttoken = await root.tokenOf("/index.php/settings/admin/settings");
    const changed = await root.post("/index.php/settings/admin/settings/audit.retention_days", { requesttoken, value: "90" });
    assert.equal(changed.statusCode, 303, changed.body.slice(0, 300));
    const reset = await root.post("/index.php/settings/admin/settings/audit.retention_days/reset", {
      requesttoken: await root.tokenOf("/index.php/settings/admin/settings"),
    });
    assert.equal(reset.statusCode, 303, reset.body.slice(0, 300));
    const events = await eventsSince(t, from);
    assert.deepEqual(
      events.map((e) => [e.kind, e.actor, e.subject, e.detail, e.requestId]),
      [
        ["setting.changed", "root", "audit.retention_days", { value: 90 }, requestIdOf(changed)],
        ["setting.deleted", "root", "audit.retention_days", null, requestIdOf(reset)],
      ],
    );
  });

  it("every kind has a scenario here", () => {
    const covered = new Set(scenarios.map(([kind]) => kind));
    const missing = AUDIT_KINDS.filter((kind) => !covered.has(kind));
    assert.deepEqual(missing, []);
  });
});
