import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { strictParams } from "../../src/http/oauth-params.js";
import type { TestApp } from "../support/app.js";
import type { FormClient } from "../support/browser-form.js";
import { AUTHORIZE, basic, createOAuthTestApp, loggedIn, TOKEN, WEB_CLIENT } from "./support.js";

/**
 * issue 5: hostile input at the OAuth endpoints. A repeated parameter (RFC 6749 §3.1), an array or
 * object where a string is expected, an oversized value → 400 invalid_request; an oversized body →
 * 413; never a 500, and nothing issued.
 */
const ENDPOINTS = [TOKEN, "/index.php/apps/oauth2/api/v1/revoke", "/index.php/apps/oauth2/api/v1/introspect"];
const CLIENT = basic(WEB_CLIENT.clientId, WEB_CLIENT.secret);

describe("strictParams (the one helper every OAuth route uses)", () => {
  it("passes strings through, refuses repeats (arrays), non-strings, oversized values and non-objects", () => {
    assert.deepEqual({ ...(strictParams({ a: "1", b: "" }) as { params: object }).params }, { a: "1", b: "" });
    assert.equal(strictParams(undefined).ok, true);
    for (const bad of [
      { a: ["1", "2"] },
      { a: 1 },
      { a: { b: "c" } },
      { a: null },
      { a: true },
      { a: "x".repeat(4097) },
      ["a"],
      "a=b",
    ]) {
      assert.equal(strictParams(bad).ok, false, JSON.stringify(bad).slice(0, 60));
    }
    const repeated = strictParams({ state: ["1", "2"] });
    assert.ok(!repeated.ok);
    assert.equal(repeated.description, "parameter state is repeated");
  });
});

describe("hostile input at the OAuth endpoints", () => {
  let t: TestApp;
  let browser: FormClient;
  before(async () => {
    t = await createOAuthTestApp();
    browser = await loggedIn(t);
  });
  after(() => t.close());

  const countIssued = async () => {
    const [codes, tokens] = await Promise.all([
      t.services.storage.db.selectFrom("oauth2_codes").select("code_hash").execute(),
      t.services.storage.db.selectFrom("oauth2_access_tokens").select("id").execute(),
    ]);
    return codes.length + tokens.length;
  };

  it("a repeated parameter in a form body → 400 invalid_request at token, revoke and introspect", async () => {
    for (const url of ENDPOINTS) {
      const response = await t.app.inject({
        method: "POST",
        url,
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: CLIENT },
        payload: "grant_type=authorization_code&grant_type=refresh_token&token=a&token=b&code=x&redirect_uri=y",
      });
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.json().error, "invalid_request", url);
      assert.match(response.json().error_description, /is repeated$/, url);
    }
  });

  it("arrays, objects, numbers and null in a JSON body → 400 invalid_request", async () => {
    for (const url of ENDPOINTS) {
      for (const payload of [{ token: ["a"] }, { token: { $ne: "" } }, { grant_type: 1 }, { token: null }, ["token"], "token"]) {
        const response = await t.app.inject({
          method: "POST",
          url,
          headers: { "content-type": "application/json", authorization: CLIENT },
          payload: JSON.stringify(payload),
        });
        assert.equal(response.statusCode, 400, `${url} ${JSON.stringify(payload)}`);
        assert.equal(response.json().error, "invalid_request");
      }
    }
  });

  it("a 1 MB state at the authorization endpoint → 400, no code issued, no redirect", async () => {
    const before = await countIssued();
    const url = `${AUTHORIZE}?${new URLSearchParams({
      response_type: "code",
      client_id: WEB_CLIENT.clientId,
      redirect_uri: WEB_CLIENT.redirectUri,
      state: "s".repeat(1024 * 1024),
    })}`;
    const page = await browser.get(url);
    assert.equal(page.statusCode, 400);
    assert.equal(page.headers.location, undefined);
    assert.match(page.body, /Request not valid/);
    const post = await browser.post(url, { requesttoken: "whatever" });
    assert.equal(post.statusCode, 400);
    assert.equal(await countIssued(), before);
  });

  it("a repeated parameter at the authorization endpoint (GET and consent POST) → 400, nothing issued", async () => {
    const before = await countIssued();
    const base = `response_type=code&client_id=${WEB_CLIENT.clientId}&redirect_uri=${encodeURIComponent(WEB_CLIENT.redirectUri)}`;
    for (const extra of ["&state=a&state=b", "&client_id=other", "&code_challenge=a&code_challenge=b"]) {
      const response = await browser.get(`${AUTHORIZE}?${base}${extra}`);
      assert.equal(response.statusCode, 400, extra);
      assert.equal(response.headers.location, undefined, extra);
      assert.equal((await browser.post(`${AUTHORIZE}?${base}${extra}`, { requesttoken: "x" })).statusCode, 400);
    }
    assert.equal(await countIssued(), before);
  });

  it("an oversized value (200 kB) in a form body → 400; a 1 MB body (over the form limit) → 413; never 5xx", async () => {
    const big = await t.app.inject({
      method: "POST",
      url: TOKEN,
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: CLIENT },
      payload: `grant_type=refresh_token&refresh_token=${"r".repeat(200_000)}`,
    });
    assert.equal(big.statusCode, 400);
    assert.equal(big.json().error, "invalid_request");
    const huge = await t.app.inject({
      method: "POST",
      url: TOKEN,
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: CLIENT },
      payload: `grant_type=refresh_token&state=${"s".repeat(1024 * 1024)}`,
    });
    assert.equal(huge.statusCode, 413);
    assert.equal(huge.json().error, "invalid_request");
  });

  it("__proto__ and constructor as parameter names are plain (unknown) parameters", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: TOKEN,
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: CLIENT },
      payload: "__proto__=x&constructor=y&grant_type=refresh_token&refresh_token=zz",
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().error, "invalid_grant");
  });
});
