import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loggedIn, WEB_CLIENT } from "../oauth/support.js";
import { requestTokenOf } from "../support/browser-form.js";
import { testDatabaseDialect } from "../support/storage.js";
import { flowModules } from "./basic-modules-flow.js";
import { requestModules } from "./basic-modules-requests.js";
import { answerOf, planOf, requestUrl, STATE } from "./support.js";

/**
 * The OpenID Foundation's Form Post Basic OP plan (openid-certification/conformance-suite,
 * OIDCCFormPostBasicTestPlan.java): the Basic OP plan's modules with `response_mode=form_post`
 * (OAuth 2.0 Form Post Response Mode), every authorization response, errors included, read from
 * the page's form. Then the rules of the page itself.
 */
describe(`OpenID Connect Form Post Basic OP plan, re-created (${testDatabaseDialect})`, () => {
  const plan = planOf("form_post");
  before(() => plan.start());
  after(() => plan.stop());

  flowModules(plan);
  requestModules(plan);

  it("Form Post Response Mode §2: the page posts to the redirect URI, its script is a same-origin file (CSP script-src 'self'), and a button works without JavaScript", async () => {
    const response = await (await loggedIn(plan.t)).get(requestUrl(plan, { prompt: "none" }));
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers["cache-control"], "no-store");
    assert.equal(response.headers["x-frame-options"], "DENY");
    const csp = String(response.headers["content-security-policy"]);
    assert.match(csp, /script-src 'self';/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.match(response.body, new RegExp(`<form method="post" action="${WEB_CLIENT.redirectUri}" id="form-post">`));
    assert.doesNotMatch(response.body, /<script>/, "no inline script");
    const script = /<script src="([^"]+)"><\/script>/.exec(response.body)?.[1];
    assert.ok(script?.startsWith("/"), "a same-origin script");
    const file = await plan.t.app.inject({ method: "GET", url: script });
    assert.equal(file.statusCode, 200);
    assert.match(String(file.headers["content-type"]), /^text\/javascript/);
    assert.match(file.body, /getElementById\("form-post"\)/);
    assert.match(file.body, /\.submit\(\)/);
    assert.match(response.body, /<noscript>.*<button type="submit" id="form-post-continue">Continue<\/button>.*<\/noscript>/s);
  });

  it("Form Post Response Mode §2: parameter values are HTML-escaped in the form and arrive unchanged", async () => {
    const state = `"><script>alert(1)</script>&amp;`;
    const response = await (await loggedIn(plan.t)).get(requestUrl(plan, { prompt: "none", state }));
    assert.doesNotMatch(response.body, /<script>alert/);
    assert.equal(answerOf(plan, response).get("state"), state);
  });

  it("Form Post Response Mode §2: the user's denial (access_denied) is posted to the redirect URI too", async () => {
    const browser = await loggedIn(plan.t);
    const url = requestUrl(plan, { scope: "openid email" });
    const page = await browser.get(url);
    const denied = await browser.post(url, { requesttoken: requestTokenOf(page.body), deny: "1" });
    const params = answerOf(plan, denied);
    assert.equal(params.get("error"), "access_denied");
    assert.equal(params.get("state"), STATE);
  });

  it("Form Post Response Mode §2 with the implicit flow: the access token is posted, not put in a fragment", async () => {
    const browser = await loggedIn(plan.t);
    const url = requestUrl(plan, { response_type: "token", scope: "openid" });
    const page = await browser.get(url);
    const params = answerOf(plan, await browser.post(url, { requesttoken: requestTokenOf(page.body) }));
    assert.equal(params.get("token_type"), "Bearer");
    const userinfo = await plan.t.app.inject({
      method: "GET",
      url: "/index.php/apps/oauth2/api/v1/userinfo",
      headers: { authorization: `Bearer ${params.get("access_token")}` },
    });
    assert.equal(userinfo.statusCode, 200);
  });
});
