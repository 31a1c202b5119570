import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { redirectUriMatches, redirectUriProblem } from "../../src/oauth/domain/redirect-uri.js";
import type { TestApp } from "../support/app.js";
import { type FormClient, requestTokenOf } from "../support/browser-form.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { AUTHORIZE, addClient, createOAuthTestApp, loggedIn, type TestClient } from "./support.js";

/** Issue 16, review #7 (supplied redirect_uri) and the registration rules of RFC 6749 §3.1.2. */

const CONF_CLIENT: TestClient = {
  name: "conf-client",
  clientId: "confidentialclientid0123456789abcdefghijkl",
  secret: "confidentialsecret0123456789abcdefghijklmnop",
  redirectUri: "https://client.example/cb",
};
const SUB_CLIENT: TestClient = {
  name: "sub-client",
  clientId: "subdomainclientid0123456789abcdefghijklmno",
  secret: "subdomainsecret0123456789abcdefghijklmnopqr",
  redirectUri: "https://client.example/cb",
};
const TRUSTED_CLIENT: TestClient = {
  name: "trusted-client",
  clientId: "trustedclientid0123456789abcdefghijklmnopq",
  secret: "trustedsecret0123456789abcdefghijklmnopqrst",
  redirectUri: "https://client.example/cb",
};

/** The review's `redirect_uri` values, as they appear in the query string (encoded once more). */
const CRLF_IN_PATH = "https%3A%2F%2Fclient.example%2Fc%250d%250ab";
const IDEOGRAPHIC_FULL_STOP_HOST = "https%3A%2F%2Fevil%E3%80%82client.example%2Fcb";

const WRITTEN_TABLES = ["oauth2_grants", "oauth2_codes", "oauth2_access_tokens", "oauth2_refresh_tokens", "activity"] as const;

async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of WRITTEN_TABLES) {
    const row = await t.services.storage.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

function authorizePath(client: TestClient, responseType: string, encodedRedirectUri: string): string {
  return `${AUTHORIZE}?response_type=${responseType}&client_id=${client.clientId}&redirect_uri=${encodedRedirectUri}`;
}

describe("a supplied redirect_uri that cannot go into a Location header as it is (issue 16)", () => {
  let t: TestApp;
  let browser: FormClient;
  before(async () => {
    t = await createOAuthTestApp(CONF_CLIENT);
    await addClient(t, { ...SUB_CLIENT, allowSubdomains: true });
    await addClient(t, { ...TRUSTED_CLIENT, trusted: true });
    browser = await loggedIn(t);
  });
  after(() => t.close());

  /** The "Request not valid" page, no redirect, nothing written. */
  async function assertRefusedWithoutWriting(path: string, clientName: string): Promise<void> {
    const before = await rowCounts(t);
    const response = await browser.get(path);
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.headers.location, undefined);
    assert.match(response.body, /Request not valid/);
    assert.ok(response.body.includes(`administrator of “${clientName}”`), response.body);
    assert.deepEqual(await rowCounts(t), before);
  }

  it("CR/LF inside the path: the error page, never a redirect, nothing written", async () => {
    await assertRefusedWithoutWriting(authorizePath(CONF_CLIENT, "bogus", CRLF_IN_PATH), CONF_CLIENT.name);
    await assertRefusedWithoutWriting(authorizePath(CONF_CLIENT, "code", CRLF_IN_PATH), CONF_CLIENT.name);
  });

  it("a host with U+3002 (IDNA-mapped to a dot) for a sub-domain client: the error page, nothing written", async () => {
    await assertRefusedWithoutWriting(authorizePath(SUB_CLIENT, "bogus", IDEOGRAPHIC_FULL_STOP_HOST), SUB_CLIENT.name);
    await assertRefusedWithoutWriting(authorizePath(SUB_CLIENT, "code", IDEOGRAPHIC_FULL_STOP_HOST), SUB_CLIENT.name);
  });

  it("response_type=code for a trusted client (no consent): no grant, no code, no activity", async () => {
    await assertRefusedWithoutWriting(authorizePath(TRUSTED_CLIENT, "code", CRLF_IN_PATH), TRUSTED_CLIENT.name);
    await assertRefusedWithoutWriting(authorizePath(TRUSTED_CLIENT, "token", IDEOGRAPHIC_FULL_STOP_HOST), TRUSTED_CLIENT.name);
  });

  it("a consent POST carrying such a redirect_uri writes nothing and redirects only to Keystream's own page", async () => {
    const page = await browser.get("/index.php/settings/personal");
    const before = await rowCounts(t);
    const response = await browser.post(authorizePath(CONF_CLIENT, "code", CRLF_IN_PATH), {
      requesttoken: requestTokenOf(page.body),
    });
    assert.equal(response.statusCode, 303);
    assert.match(String(response.headers.location), /^\/index\.php\//);
    assert.deepEqual(await rowCounts(t), before);
  });

  it("the same clients with their registered redirect_uri still get a redirect (the rule refuses only the raw form)", async () => {
    const response = await browser.get(authorizePath(TRUSTED_CLIENT, "code", encodeURIComponent(TRUSTED_CLIENT.redirectUri)));
    assert.equal(response.statusCode, 303);
    assert.match(String(response.headers.location), /^https:\/\/client\.example\/cb\?code=/);
  });

  it("a redirect URI with a control, whitespace or non-ASCII character matches no registration", () => {
    for (const given of [
      "https://client.example/c\r\nb",
      "https://client.example/c\tb",
      "https://client.example/cb ",
      " https://client.example/cb",
      "https://evil\u3002client.example/cb",
      "https://client.example/cb?x=\u00e9",
      "https://client.example/cb\u0000",
    ]) {
      assert.equal(redirectUriMatches("https://client.example/cb", given, true), false, JSON.stringify(given));
    }
    assert.equal(redirectUriMatches("https://client.example/cb", "https://a.client.example/cb", true), true);
  });
});

describe("registering a redirect URI RFC 6749 §3.1.2 forbids (issue 16)", () => {
  const ID = "registration-client-id-0123456789abcdefghij";
  const SECRET = "registration-client-secret-0123456789abcdef";
  const FRAGMENT_MESSAGE = "The redirect URL must not contain a fragment (#).";
  const USERINFO_MESSAGE = "The redirect URL must not contain a user name or password (user:password@).";
  const REFUSED: Array<[string, string]> = [
    ["https://client.example/cb#frag", FRAGMENT_MESSAGE],
    ["https://client.example/cb#", FRAGMENT_MESSAGE],
    ["http://localhost:*/cb#x", FRAGMENT_MESSAGE],
    ["https://u:p@client.example/cb", USERINFO_MESSAGE],
    ["https://evil.com@client.example/cb", USERINFO_MESSAGE],
    ["https://@client.example/cb", USERINFO_MESSAGE],
    ["oc://user@android.owncloud.com", USERINFO_MESSAGE],
  ];
  const ACCEPTED = [
    "http://localhost:*",
    "http://localhost:*/cb",
    "oc://android.owncloud.com",
    "https://client.example/cb?x=1",
    "http://127.0.0.1:8080/cb",
  ];

  let t: TestApp;
  let admin: FormClient;
  const occ = (...argv: string[]) => runOccInProcess(argv, t.testStorage);
  const clientCount = async () => (await t.services.oauth.clients.list()).length;
  before(async () => {
    t = await createOAuthTestApp(CONF_CLIENT);
    accepted(await t.services.users.create({ uid: "root", password: "root password!", isAdmin: true }));
    admin = await loggedIn(t, "root", "root password!");
  });
  after(() => t.close());

  it("a fragment or user information is a registration problem; ownCloud's other forms are not", () => {
    for (const [uri, message] of REFUSED) {
      assert.equal(redirectUriProblem(uri), message === FRAGMENT_MESSAGE ? "fragment" : "userinfo", uri);
    }
    for (const uri of ACCEPTED) assert.equal(redirectUriProblem(uri), undefined, uri);
  });

  it("oauth2:add-client refuses a fragment or user information with exit 1 and a clear message, writing nothing", async () => {
    const before = await clientCount();
    for (const [uri, message] of REFUSED) {
      assert.deepEqual(
        await occ("oauth2:add-client", "Refused", ID, SECRET, uri),
        { code: 1, out: "", err: `${message}\n` },
        uri,
      );
    }
    assert.equal(await clientCount(), before);
  });

  it("oauth2:modify-client refuses a fragment or user information with exit 1, leaving the registration as it was", async () => {
    for (const [uri, message] of REFUSED) {
      const result = await occ("oauth2:modify-client", CONF_CLIENT.name, "redirect-url", uri);
      assert.deepEqual(result, { code: 1, out: "", err: `${message}\n` }, uri);
    }
    const client = (await t.services.oauth.clients.list()).find((c) => c.name === CONF_CLIENT.name);
    assert.equal(client?.redirectUri, CONF_CLIENT.redirectUri);
  });

  it("the admin page refuses a fragment or user information with 400 and the message, adding no client", async () => {
    const before = await clientCount();
    for (const [uri, message] of REFUSED) {
      const page = await admin.get("/index.php/settings/admin/applications");
      const response = await admin.post("/index.php/apps/oauth2/clients", {
        requesttoken: requestTokenOf(page.body),
        name: "Refused on the page",
        redirect_uri: uri,
      });
      assert.equal(response.statusCode, 400, uri);
      assert.ok(response.body.includes(message), uri);
    }
    assert.equal(await clientCount(), before);
  });

  it("http://localhost:*, custom schemes and queries stay accepted, through occ and the admin page", async () => {
    for (const [n, uri] of ACCEPTED.entries()) {
      const added = await occ("oauth2:add-client", `Accepted ${n}`, `${ID}${n}`, SECRET, uri);
      assert.deepEqual(
        added,
        { code: 0, out: `The client "Accepted ${n}" was added successfully, client id ${ID}${n}\n`, err: "" },
        uri,
      );
      const page = await admin.get("/index.php/settings/admin/applications");
      const response = await admin.post("/index.php/apps/oauth2/clients", {
        requesttoken: requestTokenOf(page.body),
        name: `Accepted on the page ${n}`,
        redirect_uri: uri,
      });
      assert.equal(response.statusCode, 200, uri);
    }
  });
});
