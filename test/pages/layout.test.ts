import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { authorizeUrl, createOAuthTestApp, loggedIn, PASSWORD, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

/** issue 19: one stylesheet file, the navigation, and pages in the reader's language. */

const stylesheetOf = (body: string) => /<link rel="stylesheet" href="([^"]+)">/.exec(body)?.[1];

describe("page layout", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "root", password: PASSWORD, isAdmin: true, displayName: "Root" }));
  });
  after(() => t.close());

  it("pages link one stylesheet file and carry no inline style, so the CSP allows styles from 'self' only", async () => {
    const page = await new FormClient(t.app).get("/index.php/login");
    assert.doesNotMatch(page.body, /<style|style="/);
    const csp = String(page.headers["content-security-policy"]);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.match(String(stylesheetOf(page.body)), /^\/index\.php\/apps\/keystream\/css\/keystream-[0-9a-f]{16}\.css$/);
  });

  it("the stylesheet is served under its content-hashed name, cached for a year as immutable, its quotes intact", async () => {
    const page = await new FormClient(t.app).get("/index.php/login");
    const css = await t.app.inject({ method: "GET", url: String(stylesheetOf(page.body)) });
    assert.equal(css.statusCode, 200);
    assert.match(String(css.headers["content-type"]), /^text\/css/);
    assert.equal(css.headers["cache-control"], "public, max-age=31536000, immutable");
    assert.equal(css.headers["x-content-type-options"], "nosniff");
    assert.match(css.body, /font-family:system-ui,-apple-system,"Segoe UI"/, "the font stack is not HTML-escaped");
    const stale = await t.app.inject({ method: "GET", url: "/index.php/apps/keystream/css/keystream-0000000000000000.css" });
    assert.equal(stale.statusCode, 404);
  });

  it("the product name links home; logged-in pages have a nav landmark with Activity and Personal settings", async () => {
    const browser = await loggedIn(t);
    const page = await browser.get("/index.php/settings/personal");
    assert.match(page.body, /<a class="brand" href="\/">Keystream<\/a>/);
    assert.match(page.body, /<nav class="main-nav" aria-label="Main">/);
    assert.match(page.body, /<a href="\/index\.php\/apps\/activity\/">Activity<\/a>/);
    assert.match(page.body, /<a href="\/index\.php\/settings\/personal" aria-current="page">Personal settings<\/a>/);
    assert.doesNotMatch(page.body, /href="\/index\.php\/settings\/admin"/, "no Administration link for a user");
    const activity = await browser.get("/index.php/apps/activity/");
    assert.match(activity.body, /<a href="\/index\.php\/apps\/activity\/" aria-current="page">Activity<\/a>/);
  });

  it("the Administration link is shown to administrators only, and marked current on the admin page", async () => {
    const admin = await loggedIn(t, "root");
    const page = await admin.get("/index.php/settings/admin/users");
    assert.match(page.body, /<a href="\/index\.php\/settings\/admin" aria-current="page">Administration<\/a>/);
  });

  it('a page is in German for Accept-Language: de, with lang="de"', async () => {
    const page = await new FormClient(t.app).get("/index.php/login", { "accept-language": "de-DE,de;q=0.9,en;q=0.5" });
    assert.match(page.body, /<html lang="de">/);
    assert.match(page.body, /<title>Anmelden - Keystream<\/title>/);
    assert.match(page.body, /<label for="user">Benutzername<\/label>/);
    assert.match(page.body, /<label for="password">Passwort<\/label>/);
    assert.match(page.body, />Zum Hauptinhalt springen</);
    const english = await new FormClient(t.app).get("/index.php/login");
    assert.match(english.body, /<html lang="en">/);
    assert.match(english.body, /<label for="user">Username<\/label>/);
  });

  it("the consent page and its buttons follow Accept-Language (French)", async () => {
    const browser = await loggedIn(t);
    const page = await browser.get(authorizeUrl(WEB_CLIENT), { "accept-language": "fr" });
    assert.match(page.body, /<html lang="fr">/);
    assert.match(page.body, /L’application «\u00a0Web App\u00a0» demande l’autorisation/);
    assert.match(page.body, /id="deny" name="deny" value="1">Refuser<\/button>/);
    assert.match(page.body, />Se déconnecter<\/button>/);
  });

  it("a translation cannot inject markup: names put into a translated sentence are escaped", async () => {
    accepted(await t.services.users.create({ uid: "mallory", password: PASSWORD, displayName: "<script>x</script>" }));
    const browser = await loggedIn(t, "mallory");
    const page = await browser.get(authorizeUrl(WEB_CLIENT), { "accept-language": "de" });
    assert.match(
      page.body,
      /Sie sind angemeldet als <span title="mallory"><strong>&lt;script&gt;x&lt;\/script&gt;<\/strong><\/span>\./,
    );
    assert.doesNotMatch(page.body, /<script>/);
  });
});
