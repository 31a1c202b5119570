import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { keystreamRelease, PRODUCT } from "../../src/product.js";
import { createTestApp, type TestApp } from "../support/app.js";

describe("GET /status.php", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it("answers like ownCloud, without credentials, so clients detect the server", async () => {
    const response = await t.app.inject({ method: "GET", url: "/status.php" });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers["content-type"]), /^application\/json/);
    assert.equal(response.headers["cache-control"], "no-store");
    const body = response.json();
    assert.deepEqual(
      {
        installed: body.installed,
        maintenance: body.maintenance,
        needsDbUpgrade: body.needsDbUpgrade,
        version: body.version,
        versionstring: body.versionstring,
        edition: body.edition,
        productname: body.productname,
      },
      {
        installed: true,
        maintenance: false,
        needsDbUpgrade: false,
        version: PRODUCT.version,
        versionstring: `${PRODUCT.versionString} Keystream ${keystreamRelease()}`,
        edition: PRODUCT.edition,
        productname: "Keystream",
      },
    );
    // Clients compare the four-part version: ownCloud's need 10 or above, Nextcloud's 16 or above
    // for Login Flow v2 (test/http/nextcloud-client.test.ts holds both thresholds).
    assert.match(body.version, /^\d+\.\d+\.\d+\.\d+$/);
    // versionstring starts with that version, then names the Keystream build ("25.0.0 Keystream 0.2.0 (commit …)").
    assert.equal(body.versionstring.split(" ")[0], body.version.split(".").slice(0, 3).join("."));
    assert.match(body.versionstring, / Keystream \d+\.\d+\.\d+/);
  });

  it("maintenance mode: status.php says so, every other endpoint answers 503", async () => {
    t.services.settings.set("maintenance", true);
    try {
      const status = await t.app.inject({ method: "GET", url: "/status.php" });
      assert.equal(status.statusCode, 200);
      assert.equal(status.json().maintenance, true);
      for (const url of ["/index.php/login", "/index.php/settings/personal", "/ocs/v1.php/cloud/user", "/"]) {
        const response = await t.app.inject({ method: "GET", url });
        assert.equal(response.statusCode, 503, url);
        assert.equal(response.headers["retry-after"], "120");
      }
      const post = await t.app.inject({ method: "POST", url: "/index.php/login", payload: { user: "x", password: "y" } });
      assert.equal(post.statusCode, 503);
    } finally {
      t.services.settings.set("maintenance", false);
    }
    assert.equal((await t.app.inject({ method: "GET", url: "/index.php/login" })).statusCode, 200);
  });

  it("maintenance mode answers a browser with a page, and an API in its own error form", async () => {
    t.services.settings.set("maintenance", true);
    try {
      const page = await t.app.inject({
        method: "GET",
        url: "/index.php/login",
        headers: { accept: "text/html,application/xhtml+xml", "accept-language": "de" },
      });
      assert.equal(page.statusCode, 503);
      assert.match(String(page.headers["content-type"]), /^text\/html/);
      assert.match(page.body, /<html lang="de"/);
      assert.match(page.body, /Dieser Server wird gerade aktualisiert/);
      const token = await t.app.inject({ method: "POST", url: "/index.php/apps/oauth2/api/v1/token", payload: {} });
      assert.equal(token.statusCode, 503);
      assert.equal(token.json().error, "temporarily_unavailable");
      const ocs = await t.app.inject({ method: "GET", url: "/ocs/v2.php/cloud/user?format=json" });
      assert.equal(ocs.statusCode, 503);
      assert.equal(ocs.json().ocs.meta.statuscode, 503);
      const api = await t.app.inject({ method: "GET", url: "/index.php/apps/keystream/api/v1/auth-request" });
      assert.deepEqual(api.json(), { error: "maintenance", error_description: "Keystream is in maintenance mode." });
      assert.equal(api.headers["retry-after"], "120");
    } finally {
      t.services.settings.set("maintenance", false);
    }
    assert.equal((await t.app.inject({ method: "GET", url: "/index.php/login" })).statusCode, 200);
  });
});
