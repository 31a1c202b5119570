import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { createOAuthTestApp, exchangeCode, issueCode, PNG, USERINFO, userinfo } from "./support.js";

describe("bearer tokens and UserInfo (research A.7, A.9.2, A.10)", () => {
  let t: TestApp;
  let accessToken: string;
  before(async () => {
    t = await createOAuthTestApp();
    accessToken = (await exchangeCode(t, await issueCode(t))).json().access_token;
  });
  after(() => t.close());

  it("userinfo answers sub, name, email (no picture without an avatar), not cached", async () => {
    const response = await userinfo(t, accessToken);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { sub: "alice", name: "Alice Liddell", email: "alice@example.com" });
    assert.equal(response.headers["cache-control"], "no-store");
  });

  it("with an avatar, picture is its absolute URL (after sub), and the URL serves the image to a bearer", async () => {
    accepted(await t.services.avatars.set("alice", PNG));
    const body = (await userinfo(t, accessToken)).json();
    assert.deepEqual(Object.keys(body), ["sub", "picture", "name", "email"]);
    assert.equal(body.picture, "http://localhost:80/remote.php/dav/avatars/alice/96.png");
    const image = await t.app.inject({
      method: "GET",
      url: new URL(body.picture).pathname,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    assert.equal(image.statusCode, 200);
    assert.equal(image.headers["content-type"], "image/png");
    assert.deepEqual(image.rawPayload, PNG);
    const anonymous = await t.app.inject({ method: "GET", url: new URL(body.picture).pathname });
    assert.equal(anonymous.statusCode, 401);
    await t.services.avatars.remove("alice");
  });

  it("picture follows overwrite.cli.url", async () => {
    accepted(await t.services.avatars.set("alice", PNG));
    t.services.settings.set("overwrite.cli.url", "https://cloud.example.com");
    try {
      assert.equal(
        (await userinfo(t, accessToken)).json().picture,
        "https://cloud.example.com/remote.php/dav/avatars/alice/96.png",
      );
    } finally {
      t.services.settings.delete("overwrite.cli.url");
      await t.services.avatars.remove("alice");
    }
  });

  it("the access token authenticates other protected routes as Bearer", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/ocs/v2.php/cloud/user?format=json",
      headers: { authorization: `Bearer ${accessToken}` },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().ocs.data.id, "alice");
  });

  it("an unknown token → 401 JSON with WWW-Authenticate Bearer error=invalid_token", async () => {
    const response = await userinfo(t, "D".repeat(64));
    assert.equal(response.statusCode, 401);
    assert.match(String(response.headers["www-authenticate"]), /^Bearer .*error="invalid_token"/);
    assert.equal(response.json().error, "invalid_token");
  });

  it("no credentials → 401", async () => {
    assert.equal((await t.app.inject({ method: "GET", url: USERINFO })).statusCode, 401);
  });

  it("a disabled user's tokens stop working, and work again when re-enabled", async () => {
    accepted(await t.services.users.setEnabled("alice", false));
    assert.equal((await userinfo(t, accessToken)).statusCode, 401);
    accepted(await t.services.users.setEnabled("alice", true));
    assert.equal((await userinfo(t, accessToken)).statusCode, 200);
  });

  describe("CORS", () => {
    it("OPTIONS under api/v1 answers the preflight", async () => {
      const response = await t.app.inject({
        method: "OPTIONS",
        url: "/index.php/apps/oauth2/api/v1/token",
        headers: { origin: "https://spa.example.com", "access-control-request-method": "POST" },
      });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers["access-control-allow-origin"], "https://spa.example.com");
      assert.equal(response.headers["access-control-allow-methods"], "PUT, POST, GET, DELETE, PATCH");
      assert.equal(response.headers["access-control-allow-headers"], "Authorization, Content-Type, Accept");
      assert.equal(response.headers["access-control-max-age"], "1728000");
      assert.equal(response.headers["access-control-allow-credentials"], "false");
    });
    it("an actual request gets CORS headers only for an origin in cors.allowed-domains", async () => {
      const request = (origin: string) =>
        t.app.inject({ method: "GET", url: USERINFO, headers: { authorization: `Bearer ${accessToken}`, origin } });
      assert.equal((await request("https://spa.example.com")).headers["access-control-allow-origin"], undefined);
      t.services.settings.set("cors.allowed-domains", "https://spa.example.com");
      try {
        const allowed = await request("https://spa.example.com");
        assert.equal(allowed.headers["access-control-allow-origin"], "https://spa.example.com");
        assert.equal(allowed.headers.vary, "Origin");
        assert.equal((await request("https://evil.example.com")).headers["access-control-allow-origin"], undefined);
        const token = await t.app.inject({
          method: "POST",
          url: "/index.php/apps/oauth2/api/v1/token",
          headers: { origin: "https://spa.example.com" },
          payload: {},
        });
        assert.equal(token.headers["access-control-allow-origin"], "https://spa.example.com");
      } finally {
        t.services.settings.delete("cors.allowed-domains");
      }
    });
  });
});
