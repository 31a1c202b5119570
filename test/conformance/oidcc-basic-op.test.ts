import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { basic, loggedIn, tokenRequest, WEB_CLIENT } from "../oauth/support.js";
import { requestTokenOf } from "../support/browser-form.js";
import { testDatabaseDialect } from "../support/storage.js";
import { flowModules } from "./basic-modules-flow.js";
import { requestModules } from "./basic-modules-requests.js";
import { codeOf, planOf, requestUrl, STATE } from "./support.js";

/**
 * The OpenID Foundation's Basic OP plan (openid-certification/conformance-suite,
 * OIDCCBasicTestPlan.java: the code flow, client_secret_basic, the default response mode),
 * re-created here because the suite itself needs the network. Each test is named after the
 * suite's module; a module with no test here is not claimed. docs/openid-connect.md "Conformance"
 * lists them with their outcome.
 */
describe(`OpenID Connect Basic OP plan, re-created (${testDatabaseDialect})`, () => {
  const plan = planOf("default");
  before(() => plan.start());
  after(() => plan.stop());

  flowModules(plan);
  requestModules(plan);

  it("oidcc-server with client_secret_basic form-urlencoded (RFC 6749 §2.3.1): a secret with special characters works encoded and raw", async () => {
    const { t } = plan;
    const secret = "Se+cr/et=%:&-0123456789abcdefghijklmnopqrstuvwxyz";
    const modified = await t.services.oauth.clients.modify(WEB_CLIENT.name, "client-secret", secret);
    assert.ok(modified.ok);
    try {
      const encoded = basic(encodeURIComponent(WEB_CLIENT.clientId), encodeURIComponent(secret));
      for (const authorization of [encoded, basic(WEB_CLIENT.clientId, secret)]) {
        const code = await codeOf(plan, await loggedIn(t), requestUrl(plan));
        const tokens = await tokenRequest(
          t,
          { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri },
          { authorization },
        );
        assert.equal(tokens.statusCode, 200, tokens.body);
      }
    } finally {
      await t.services.oauth.clients.modify(WEB_CLIENT.name, "client-secret", WEB_CLIENT.secret);
    }
  });

  it("OAuth 2.0 Multiple Response Types §2.1: response_mode=fragment puts the code flow's answer in the fragment", async () => {
    const browser = await loggedIn(plan.t);
    const url = requestUrl(plan, { response_mode: "fragment" });
    const page = await browser.get(url);
    const response = await browser.post(url, { requesttoken: requestTokenOf(page.body) });
    assert.equal(response.statusCode, 303);
    const location = new URL(String(response.headers.location));
    assert.equal(location.search, "");
    const params = new URLSearchParams(location.hash.slice(1));
    assert.match(params.get("code") ?? "", /^[A-Za-z0-9]{64}$/);
    assert.equal(params.get("state"), STATE);
  });
});
