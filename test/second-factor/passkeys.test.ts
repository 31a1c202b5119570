import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PASSKEY_SCRIPT_PATH, WEBAUTHN_LIBRARY_PATH } from "../../src/http/passkey-scripts.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { SoftwareAuthenticator } from "./software-authenticator.js";

const ORIGIN = "https://keystream.example";
const SIGN_IN = { kind: "sign_in", browser: "browser-1" } as const;

/**
 * Passkeys' server side on real storage: what is stored, and every answer the ceremonies refuse
 * (W3C WebAuthn Level 3 §7.1, §7.2; docs/security.md "Passkeys"). The answers come from a software
 * authenticator (software-authenticator.ts); the browser half is test/e2e/passkeys.e2e.test.ts.
 */
describe("passkeys: storage and the ceremonies' refusals", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    for (const uid of ["alice", "bob", "carol"]) accepted(await t.services.users.create({ uid, password: "correct horse" }));
  });
  after(() => t.close());

  const registered = async (uid: string, name = "Laptop") => {
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const options = await t.services.passkeys.registrationOptions(uid, uid, ORIGIN);
    const result = await t.services.passkeys.register(uid, name, JSON.stringify(authenticator.register(options)), ORIGIN);
    assert.equal(result.ok, true);
    return authenticator;
  };
  const signIn = async (authenticator: SoftwareAuthenticator, bend: Parameters<SoftwareAuthenticator["assert"]>[1] = {}) => {
    const options = await t.services.passkeys.authenticationOptions(SIGN_IN, ORIGIN);
    return t.services.passkeys.authenticate(SIGN_IN, JSON.stringify(authenticator.assert(options, bend)), ORIGIN);
  };

  it("registration asks for a discoverable credential with user verification, for the origin's host, and stores the passkey with its name", async () => {
    const options = await t.services.passkeys.registrationOptions("alice", "Alice", ORIGIN);
    assert.equal(options.rp.id, "keystream.example");
    assert.equal(options.authenticatorSelection?.residentKey, "required");
    assert.equal(options.authenticatorSelection?.userVerification, "required");
    assert.notEqual(options.user.id, "alice", "the user handle is not the user name");
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const result = await t.services.passkeys.register(
      "alice",
      "  Phone  ",
      JSON.stringify(authenticator.register(options)),
      ORIGIN,
    );
    assert.equal(result.ok, true);
    const [stored] = await t.services.passkeys.list("alice");
    assert.equal(stored?.id, authenticator.id);
    assert.equal(stored?.name, "Phone");
    assert.equal(stored?.counter, 0);
    assert.deepEqual(stored?.transports, ["internal"]);
    assert.equal(stored?.lastUsedAt, null);
    assert.equal(await t.services.secondFactors.hasSecondFactor("alice"), true, "a passkey is a second factor");
    assert.deepEqual(await t.services.secondFactors.offeredTo("alice"), ["webauthn"]);
    assert.deepEqual((await t.services.secondFactors.enabledByUser()).get("alice"), ["webauthn"]);
  });

  it("a registration answering a challenge handed out to another user is refused", async () => {
    const options = await t.services.passkeys.registrationOptions("bob", "bob", ORIGIN);
    const answer = JSON.stringify(new SoftwareAuthenticator(ORIGIN).register(options));
    assert.deepEqual(await t.services.passkeys.register("carol", "x", answer, ORIGIN), { ok: false, refusal: "challenge" });
    assert.deepEqual(await t.services.passkeys.list("carol"), []);
  });

  it("a registration without user verification, or made for another origin, is refused", async () => {
    for (const bend of [{ userVerified: false }, { origin: "https://evil.example" }]) {
      const options = await t.services.passkeys.registrationOptions("bob", "bob", ORIGIN);
      const answer = JSON.stringify(new SoftwareAuthenticator(ORIGIN).register(options, bend));
      assert.deepEqual(await t.services.passkeys.register("bob", "x", answer, ORIGIN), { ok: false, refusal: "verification" });
    }
    assert.deepEqual(await t.services.passkeys.list("bob"), []);
  });

  it("the same credential is not registered twice", async () => {
    const authenticator = await registered("bob");
    const options = await t.services.passkeys.registrationOptions("bob", "bob", ORIGIN);
    assert.ok(
      options.excludeCredentials?.some((c) => c.id === authenticator.id),
      "the authenticator is told it has one",
    );
    const again = await t.services.passkeys.register("bob", "again", JSON.stringify(authenticator.register(options)), ORIGIN);
    assert.deepEqual(again, { ok: false, refusal: "duplicate" });
    assert.equal((await t.services.passkeys.list("bob")).length, 1);
    await t.services.passkeys.disableFor("bob");
  });

  it("a sign-in lists no credentials, and a correct assertion returns the passkey with its use recorded", async () => {
    const authenticator = await registered("bob");
    const options = await t.services.passkeys.authenticationOptions(SIGN_IN, ORIGIN);
    assert.equal(options.allowCredentials, undefined, "discoverable: the authenticator offers its own");
    assert.equal(options.userVerification, "required");
    const passkey = await t.services.passkeys.authenticate(SIGN_IN, JSON.stringify(authenticator.assert(options)), ORIGIN);
    assert.equal(passkey?.uid, "bob");
    const [stored] = await t.services.passkeys.list("bob");
    assert.equal(stored?.counter, 1);
    assert.equal(stored?.lastUsedAt, t.clock.nowSeconds());
    await t.services.passkeys.disableFor("bob");
  });

  it("a challenge is answered once: the same assertion replayed is refused", async () => {
    const authenticator = await registered("bob");
    const options = await t.services.passkeys.authenticationOptions(SIGN_IN, ORIGIN);
    const answer = JSON.stringify(authenticator.assert(options));
    assert.ok(await t.services.passkeys.authenticate(SIGN_IN, answer, ORIGIN));
    assert.equal(await t.services.passkeys.authenticate(SIGN_IN, answer, ORIGIN), undefined);
    await t.services.passkeys.disableFor("bob");
  });

  it("a challenge handed out to one browser is refused from another, and an expired one from any", async () => {
    const authenticator = await registered("bob");
    const options = await t.services.passkeys.authenticationOptions(SIGN_IN, ORIGIN);
    const answer = JSON.stringify(authenticator.assert(options));
    const other = { kind: "sign_in", browser: "browser-2" } as const;
    assert.equal(await t.services.passkeys.authenticate(other, answer, ORIGIN), undefined);
    const late = await t.services.passkeys.authenticationOptions(SIGN_IN, ORIGIN);
    t.clock.advance(301);
    assert.equal(await t.services.passkeys.authenticate(SIGN_IN, JSON.stringify(authenticator.assert(late)), ORIGIN), undefined);
    await t.services.passkeys.disableFor("bob");
  });

  it("an assertion made for another origin or another relying party is refused", async () => {
    const authenticator = await registered("bob");
    assert.equal(await signIn(authenticator, { origin: "https://evil.example" }), undefined);
    assert.equal(await signIn(authenticator, { rpId: "evil.example" }), undefined);
    assert.ok(await signIn(authenticator), "the right origin still works");
    await t.services.passkeys.disableFor("bob");
  });

  it("an assertion by a credential the server does not know is refused", async () => {
    assert.equal(await signIn(new SoftwareAuthenticator(ORIGIN)), undefined);
  });

  it("an assertion without user verification is refused (a passkey alone must be both factors)", async () => {
    const authenticator = await registered("bob");
    assert.equal(await signIn(authenticator, { userVerified: false }), undefined);
    await t.services.passkeys.disableFor("bob");
  });

  it("a signature counter that does not move on is refused (a cloned authenticator, §6.1.1)", async () => {
    const authenticator = await registered("bob");
    assert.ok(await signIn(authenticator));
    assert.equal(await signIn(authenticator, { keepCounter: true }), undefined);
    assert.equal((await t.services.passkeys.list("bob"))[0]?.counter, 1, "the stored counter stays");
    await t.services.passkeys.disableFor("bob");
  });

  it("as the second factor, only the user's own passkey answers, and only the user's challenge", async () => {
    const bobs = await registered("bob");
    const carols = await registered("carol");
    const forBob = await t.services.passkeys.authenticationOptions({ kind: "second_factor", uid: "bob" }, ORIGIN);
    assert.deepEqual(
      forBob.allowCredentials?.map((c) => c.id),
      [bobs.id],
    );
    assert.equal(
      await t.services.secondFactors.verify("bob", "webauthn", JSON.stringify(carols.assert(forBob)), { origin: ORIGIN }),
      false,
    );
    const again = await t.services.passkeys.authenticationOptions({ kind: "second_factor", uid: "bob" }, ORIGIN);
    assert.equal(
      await t.services.secondFactors.verify("carol", "webauthn", JSON.stringify(carols.assert(again)), { origin: ORIGIN }),
      false,
    );
    const fresh = await t.services.passkeys.authenticationOptions({ kind: "second_factor", uid: "bob" }, ORIGIN);
    assert.equal(
      await t.services.secondFactors.verify("bob", "webauthn", JSON.stringify(bobs.assert(fresh)), { origin: ORIGIN }),
      true,
    );
    assert.equal(await t.services.secondFactors.verify("bob", "webauthn", "not json", { origin: ORIGIN }), false);
    await t.services.passkeys.disableFor("bob");
    await t.services.passkeys.disableFor("carol");
  });

  it("twofactorauth:disable's webauthn removes every passkey of the user and no one else's", async () => {
    await registered("bob", "one");
    await registered("bob", "two");
    await registered("carol");
    assert.equal(await t.services.secondFactors.disable("bob", "webauthn"), true);
    assert.deepEqual(await t.services.passkeys.list("bob"), []);
    assert.equal(await t.services.secondFactors.hasSecondFactor("bob"), false);
    assert.equal((await t.services.passkeys.list("carol")).length, 1);
    assert.equal(await t.services.secondFactors.disable("bob", "webauthn"), false, "nothing left to remove");
    await t.services.passkeys.disableFor("carol");
  });
});

describe("passkey sign-in over HTTP", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    t.services.settings.set("overwrite.cli.url", ORIGIN);
    accepted(await t.services.users.create({ uid: "dave", password: "correct horse" }));
  });
  after(() => t.close());

  const loginPage = async (browser: FormClient) => {
    const page = await browser.get("/index.php/login?redirect_url=%2Findex.php%2Fsettings%2Fpersonal%3Ftab%3Dsecurity");
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /autocomplete="username webauthn"/, "the user field offers passkeys in autofill");
    assert.match(page.body, /<script src="\/index\.php\/js\/simplewebauthn-browser-[0-9a-f]{16}\.js"><\/script>/);
    return requestTokenOf(page.body);
  };

  it("a passkey with user verification logs in completely and names the redirect_url", async () => {
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const reg = await t.services.passkeys.registrationOptions("dave", "dave", ORIGIN);
    assert.equal(
      (await t.services.passkeys.register("dave", "Key", JSON.stringify(authenticator.register(reg)), ORIGIN)).ok,
      true,
    );
    const browser = new FormClient(t.app);
    const requesttoken = await loginPage(browser);
    const optionsAnswer = await browser.post("/index.php/login/passkey/options", { requesttoken });
    assert.equal(optionsAnswer.statusCode, 200);
    const answer = authenticator.assert(JSON.parse(optionsAnswer.body));
    const done = await browser.post("/index.php/login/passkey", {
      requesttoken,
      redirect_url: "/index.php/settings/personal?tab=security",
      response: JSON.stringify(answer),
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.deepEqual(JSON.parse(done.body), { redirect: "/index.php/settings/personal?tab=security" });
    const settings = await browser.get("/index.php/settings/personal");
    assert.equal(settings.statusCode, 200, "a complete session: no challenge owed");
    assert.match(settings.body, /id="passkey-list"/);
  });

  it("a user with a passkey is refused the account password over HTTP Basic (401), as with any second factor", async () => {
    const answer = await t.app.inject({
      method: "GET",
      url: "/ocs/v2.php/cloud/user?format=json",
      headers: { authorization: `Basic ${Buffer.from("dave:correct horse").toString("base64")}`, "ocs-apirequest": "true" },
    });
    assert.equal(answer.statusCode, 401);
    assert.match(answer.body, /second_factor_required/);
  });

  it("failed passkey sign-ins are throttled per address: locked at the 2fa policy's ceiling (429, Retry-After)", async () => {
    const browser = new FormClient(t.app, "192.0.2.77");
    const requesttoken = await loginPage(browser);
    const attempt = async () => {
      const options = JSON.parse((await browser.post("/index.php/login/passkey/options", { requesttoken })).body);
      const stranger = new SoftwareAuthenticator(ORIGIN).assert(options);
      return browser.post("/index.php/login/passkey", { requesttoken, response: JSON.stringify(stranger) });
    };
    for (let failure = 1; failure <= 10; failure++) assert.equal((await attempt()).statusCode, 401, `failure ${failure}`);
    const locked = await attempt();
    assert.equal(locked.statusCode, 429);
    assert.ok(Number(locked.headers["retry-after"]) > 0);
    const elsewhere = new FormClient(t.app, "192.0.2.78");
    const token = await loginPage(elsewhere);
    const options = JSON.parse((await elsewhere.post("/index.php/login/passkey/options", { requesttoken: token })).body);
    const refused = await elsewhere.post("/index.php/login/passkey", {
      requesttoken: token,
      response: JSON.stringify(new SoftwareAuthenticator(ORIGIN).assert(options)),
    });
    assert.equal(refused.statusCode, 401, "another address is not locked");
  });

  it("without the login form's token the options and the sign-in are refused (403)", async () => {
    const browser = new FormClient(t.app);
    assert.equal((await browser.post("/index.php/login/passkey/options", {})).statusCode, 403);
    assert.equal((await browser.post("/index.php/login/passkey", { response: "{}" })).statusCode, 403);
  });

  it("a refused assertion answers 401 with the reason, and no session", async () => {
    const browser = new FormClient(t.app);
    const requesttoken = await loginPage(browser);
    const options = JSON.parse((await browser.post("/index.php/login/passkey/options", { requesttoken })).body);
    const stranger = new SoftwareAuthenticator(ORIGIN).assert(options);
    const refused = await browser.post("/index.php/login/passkey", { requesttoken, response: JSON.stringify(stranger) });
    assert.equal(refused.statusCode, 401);
    assert.match(JSON.parse(refused.body).error, /not accepted/);
    assert.equal((await browser.get("/index.php/settings/personal")).statusCode, 303, "still logged out");
  });

  it("the library script and the ceremony script are served from this origin as JavaScript", async () => {
    for (const url of [WEBAUTHN_LIBRARY_PATH, PASSKEY_SCRIPT_PATH]) {
      const script = await t.app.inject({ method: "GET", url });
      assert.equal(script.statusCode, 200);
      assert.match(String(script.headers["content-type"]), /^text\/javascript/);
    }
    const library = await t.app.inject({ method: "GET", url: WEBAUTHN_LIBRARY_PATH });
    assert.match(library.body, /SimpleWebAuthnBrowser/);
  });
});
