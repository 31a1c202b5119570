import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PRODUCT } from "../../src/product.js";
import { createTestApp, type TestApp } from "../support/app.js";

describe("GET /ocs/v{1,2}.php/cloud/capabilities", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it("answers OCS v1 with statuscode 100 in compact JSON, without credentials", async () => {
    const response = await t.app.inject({ method: "GET", url: "/ocs/v1.php/cloud/capabilities?format=json" });
    assert.equal(response.statusCode, 200);
    // The ownCloud desktop client matches `"statuscode":NNN,` in the raw body (research §2).
    assert.match(response.body, /"statuscode":100,/);
    const { ocs } = response.json();
    assert.equal(ocs.meta.status, "ok");
    assert.deepEqual(ocs.data.version, {
      major: 25,
      minor: 0,
      micro: 0,
      string: PRODUCT.versionString,
      edition: PRODUCT.edition,
      product: PRODUCT.name,
    });
    assert.equal(ocs.data.capabilities.core.status.version, PRODUCT.version);
    assert.equal(ocs.data.capabilities.core.status.installed, true);
    assert.equal(ocs.data.capabilities.core["webdav-root"], "remote.php/webdav");
  });

  it("answers OCS v2 with the HTTP status as statuscode", async () => {
    const response = await t.app.inject({ method: "GET", url: "/ocs/v2.php/cloud/capabilities?format=json" });
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /"statuscode":200,/);
    assert.equal(response.json().ocs.data.capabilities.core.status.productname, "Keystream");
  });

  it("leaves out dav.chunking, so the desktop client keeps /remote.php/webdav/; advertises the notifications endpoints it serves", async () => {
    const { ocs } = (await t.app.inject({ method: "GET", url: "/ocs/v1.php/cloud/capabilities?format=json" })).json();
    assert.equal(ocs.data.capabilities.dav?.chunking, undefined);
    assert.deepEqual(ocs.data.capabilities.notifications["ocs-endpoints"], [
      "list",
      "get",
      "delete",
      "delete-all",
      "icons",
      "rich-strings",
    ]);
    assert.equal(ocs.data.capabilities.files_sharing.user.profile_picture, false);
  });

  it("speaks OCS XML by default", async () => {
    const response = await t.app.inject({ method: "GET", url: "/ocs/v1.php/cloud/capabilities" });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers["content-type"], "application/xml; charset=utf-8");
    assert.match(response.body, /<statuscode>100<\/statuscode>/);
    assert.match(response.body, /<webdav-root>remote\.php\/webdav<\/webdav-root>/);
  });
});
