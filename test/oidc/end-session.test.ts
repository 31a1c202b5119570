import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { generateKeyPair, SignJWT } from "jose";
import { loggedIn, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";
import { createOidcTestApp, END_SESSION, ISSUER, openIdTokens, POST_LOGOUT } from "./support.js";

const SETTINGS = "/index.php/settings/personal";

async function isLoggedIn(browser: FormClient): Promise<boolean> {
  return (await browser.get(SETTINGS)).statusCode === 200;
}

function endSessionUrl(params: Record<string, string>): string {
  return `${END_SESSION}?${new URLSearchParams(params)}`;
}

describe(`RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0, ${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOidcTestApp();
  });
  after(() => t.close());

  it("RP-Initiated Logout 2: an id_token_hint of the logged-in user ends the session and returns to the registered post_logout_redirect_uri with state", async () => {
    const browser = await loggedIn(t);
    const { id_token } = await openIdTokens(t, browser);
    const response = await browser.get(
      endSessionUrl({ id_token_hint: id_token as string, post_logout_redirect_uri: POST_LOGOUT, state: "bye 1" }),
    );
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, `${POST_LOGOUT}?state=bye%201`);
    assert.equal(await isLoggedIn(browser), false, "the Keystream session is over");
  });

  it("RP-Initiated Logout 2: the end_session_endpoint accepts POST as well", async () => {
    const browser = await loggedIn(t);
    const { id_token } = await openIdTokens(t, browser);
    const response = await browser.post(END_SESSION, {
      id_token_hint: id_token as string,
      post_logout_redirect_uri: POST_LOGOUT,
    });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, POST_LOGOUT);
    assert.equal(await isLoggedIn(browser), false);
  });

  it("RP-Initiated Logout 3: a post_logout_redirect_uri not registered for the client is refused with a page, and the session stays", async () => {
    const browser = await loggedIn(t);
    const { id_token } = await openIdTokens(t, browser);
    for (const target of ["https://evil.example/", `${POST_LOGOUT}/more`, WEB_CLIENT.redirectUri]) {
      const response = await browser.get(endSessionUrl({ id_token_hint: id_token as string, post_logout_redirect_uri: target }));
      assert.equal(response.statusCode, 400, target);
      assert.equal(response.headers.location, undefined);
    }
    const noClient = await browser.get(endSessionUrl({ post_logout_redirect_uri: POST_LOGOUT }));
    assert.equal(noClient.statusCode, 400, "without id_token_hint or client_id nothing proves whose URI it is");
    assert.equal(await isLoggedIn(browser), true);
  });

  it("RP-Initiated Logout 2: an id_token_hint Keystream did not sign is refused", async () => {
    const browser = await loggedIn(t);
    const { privateKey } = await generateKeyPair("RS256");
    const forged = await new SignJWT({ sub: "alice", aud: WEB_CLIENT.clientId, iss: ISSUER })
      .setProtectedHeader({ alg: "RS256", kid: "forged" })
      .sign(privateKey);
    const response = await browser.get(endSessionUrl({ id_token_hint: forged, post_logout_redirect_uri: POST_LOGOUT }));
    assert.equal(response.statusCode, 400);
    assert.equal(await isLoggedIn(browser), true);
  });

  it("RP-Initiated Logout 2: an expired id_token_hint is still accepted", async () => {
    const browser = await loggedIn(t);
    const { id_token } = await openIdTokens(t, browser);
    t.clock.advance(7200);
    const response = await browser.get(
      endSessionUrl({ id_token_hint: id_token as string, post_logout_redirect_uri: POST_LOGOUT }),
    );
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, POST_LOGOUT);
  });

  it("RP-Initiated Logout 2: client_id that is not the hint's audience is refused", async () => {
    const browser = await loggedIn(t);
    const { id_token } = await openIdTokens(t, browser);
    const response = await browser.get(
      endSessionUrl({ id_token_hint: id_token as string, client_id: "someone-else-0123456789abcdefghijkl" }),
    );
    assert.equal(response.statusCode, 400);
  });

  it("RP-Initiated Logout 2: without id_token_hint the user is asked; the CSRF-checked confirmation ends the session and redirects", async () => {
    const browser = await loggedIn(t);
    const page = await browser.get(
      endSessionUrl({ client_id: WEB_CLIENT.clientId, post_logout_redirect_uri: POST_LOGOUT, state: "s" }),
    );
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /id="oidc-logout-confirm"/);
    assert.equal(await isLoggedIn(browser), true, "asking ends nothing");
    const forged = await browser.post(`${END_SESSION}/confirm`, {
      client_id: WEB_CLIENT.clientId,
      post_logout_redirect_uri: POST_LOGOUT,
    });
    assert.equal(forged.statusCode, 403, "no requesttoken, no logout");
    assert.equal(await isLoggedIn(browser), true);
    const confirmed = await browser.post(`${END_SESSION}/confirm`, {
      requesttoken: requestTokenOf(page.body),
      client_id: WEB_CLIENT.clientId,
      post_logout_redirect_uri: POST_LOGOUT,
      state: "s",
    });
    assert.equal(confirmed.statusCode, 303);
    assert.equal(confirmed.headers.location, `${POST_LOGOUT}?state=s`);
    assert.equal(await isLoggedIn(browser), false);
  });

  it("RP-Initiated Logout 2: nobody logged in: straight to the registered URI, or Keystream's logged-out page", async () => {
    const anonymous = new FormClient(t.app);
    const back = await anonymous.get(endSessionUrl({ client_id: WEB_CLIENT.clientId, post_logout_redirect_uri: POST_LOGOUT }));
    assert.equal(back.statusCode, 303);
    assert.equal(back.headers.location, POST_LOGOUT);
    const page = await anonymous.get(END_SESSION);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /id="oidc-logged-out"/);
  });
});

describe(`post-logout redirect URI registration (issue 15, ${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOidcTestApp();
  });
  after(() => t.close());
  const occ = (...argv: string[]) => runOccInProcess(argv, t.testStorage);
  const find = async (name: string) => (await t.services.oauth.clients.list()).find((c) => c.name === name);

  it("oauth2:add-client --post-logout-redirect-url registers it; the redirect URI rule refuses a fragment or credentials", async () => {
    const args = ["Gitea", "g".repeat(40), "s".repeat(40), "https://git.example.org/cb"];
    const refused = await occ("oauth2:add-client", ...args, "--post-logout-redirect-url=https://git.example.org/#frag");
    assert.deepEqual(refused, { code: 1, out: "", err: "The redirect URL must not contain a fragment (#).\n" });
    const userinfo = await occ("oauth2:add-client", ...args, "--post-logout-redirect-url=https://u:p@git.example.org/");
    assert.equal(userinfo.code, 1);
    assert.equal(await find("Gitea"), undefined);
    assert.deepEqual(await occ("oauth2:add-client", ...args, "--post-logout-redirect-url=https://git.example.org/bye"), {
      code: 0,
      out: `The client "Gitea" was added successfully, client id ${args[1]}\n`,
      err: "",
    });
    assert.equal((await find("Gitea"))?.postLogoutRedirectUri, "https://git.example.org/bye");
    const listed = JSON.parse((await occ("oauth2:list-clients", "--output=json")).out);
    assert.equal(listed.Gitea["post-logout-redirect-url"], "https://git.example.org/bye");
  });

  it("oauth2:modify-client key post-logout-redirect-url changes it, refuses an invalid URI, and an empty value removes it", async () => {
    assert.equal((await occ("oauth2:modify-client", WEB_CLIENT.name, "post-logout-redirect-url", "not a url")).code, 1);
    assert.equal((await find(WEB_CLIENT.name))?.postLogoutRedirectUri, POST_LOGOUT);
    assert.equal(
      (await occ("oauth2:modify-client", WEB_CLIENT.name, "post-logout-redirect-url", "https://app.example.com/x")).code,
      0,
    );
    assert.equal((await find(WEB_CLIENT.name))?.postLogoutRedirectUri, "https://app.example.com/x");
    assert.equal((await occ("oauth2:modify-client", WEB_CLIENT.name, "post-logout-redirect-url", "")).code, 0);
    assert.equal((await find(WEB_CLIENT.name))?.postLogoutRedirectUri, undefined);
  });

  it("the admin page's post-logout redirection URI field registers it, validated by the same rule", async () => {
    accepted(await t.services.users.create({ uid: "admin", password: "admin password 1", displayName: "Admin", isAdmin: true }));
    const browser = await loggedIn(t, "admin", "admin password 1");
    const page = await browser.get("/index.php/settings/admin/applications");
    assert.match(page.body, /name="post_logout_redirect_uri"/);
    const token = requestTokenOf(page.body);
    const bad = await browser.post("/index.php/apps/oauth2/clients", {
      requesttoken: token,
      name: "Immich",
      redirect_uri: "https://photos.example.org/cb",
      post_logout_redirect_uri: "https://photos.example.org/#x",
    });
    assert.equal(bad.statusCode, 400);
    const good = await browser.post("/index.php/apps/oauth2/clients", {
      requesttoken: token,
      name: "Immich",
      redirect_uri: "https://photos.example.org/cb",
      post_logout_redirect_uri: "https://photos.example.org/bye",
    });
    assert.equal(good.statusCode, 200, good.body);
    assert.equal((await find("Immich"))?.postLogoutRedirectUri, "https://photos.example.org/bye");
    assert.match(good.body, /https:\/\/photos\.example\.org\/bye/);
  });

  it("oidc:rotate-key prints the new key id and the retired one, never a key", async () => {
    const before = (await t.app.inject({ method: "GET", url: "/index.php/apps/oauth2/jwks" })).json().keys[0].kid;
    const result = await occ("oidc:rotate-key");
    assert.equal(result.code, 0, result.err);
    // The command runs on the system clock, the app on its manual one: read the rows, not the JWKS.
    const rows = await t.services.storage.db.selectFrom("oidc_signing_keys").select(["kid", "retired_at"]).execute();
    const live = rows.filter((row) => row.retired_at === null).map((row) => row.kid);
    assert.equal(live.length, 1);
    assert.deepEqual(
      rows.filter((row) => row.retired_at !== null).map((row) => row.kid),
      [before],
    );
    assert.match(
      result.out,
      new RegExp(`^New signing key: ${live[0]}\\nRetired \\(published for 604800 more seconds\\): ${before}\\n$`),
    );
    assert.doesNotMatch(result.out + result.err, /"d"|BEGIN|PRIVATE/);
  });
});
