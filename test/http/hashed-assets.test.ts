import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { after, before, describe, it } from "node:test";
import { ACTIVITY_LIVE_SCRIPT_PATH } from "../../src/http/activity-live-script.js";
import { STYLESHEET_PATH } from "../../src/http/pages/stylesheet.js";
import { PASSKEY_SCRIPT_PATH, WEBAUTHN_LIBRARY_PATH } from "../../src/http/passkey-scripts.js";
import { COPY_SCRIPT_PATH } from "../../src/http/settings-copy-script.js";
import { createTestApp, type TestApp } from "../support/app.js";

/**
 * The pages' scripts and stylesheet (src/http/hashed-assets.ts): real files in src/http/assets/,
 * each served under a name that carries the hash of the bytes served, cached as immutable.
 */

const ASSETS = [
  { path: COPY_SCRIPT_PATH, source: "copy-secret.js", type: "text/javascript; charset=utf-8" },
  { path: ACTIVITY_LIVE_SCRIPT_PATH, source: "activity-live.js", type: "text/javascript; charset=utf-8" },
  { path: PASSKEY_SCRIPT_PATH, source: "passkeys.js", type: "text/javascript; charset=utf-8" },
  { path: WEBAUTHN_LIBRARY_PATH, source: undefined, type: "text/javascript; charset=utf-8" },
  { path: STYLESHEET_PATH, source: "keystream.css", type: "text/css; charset=utf-8" },
];

const sha256Prefix = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

describe("hashed assets", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it("serve each file under the hash of its bytes, for a year as immutable, with nosniff", async () => {
    for (const asset of ASSETS) {
      const response = await t.app.inject({ method: "GET", url: asset.path });
      assert.equal(response.statusCode, 200, asset.path);
      assert.equal(response.headers["content-type"], asset.type, asset.path);
      assert.equal(response.headers["cache-control"], "public, max-age=31536000, immutable", asset.path);
      assert.equal(response.headers["x-content-type-options"], "nosniff", asset.path);
      assert.match(asset.path, new RegExp(`-${sha256Prefix(response.body)}\\.(js|css)$`), asset.path);
      if (asset.source !== undefined) {
        const file = fs.readFileSync(new URL(`../../src/http/assets/${asset.source}`, import.meta.url), "utf8");
        assert.equal(response.body, asset.source.endsWith(".css") ? file.trim() : file, asset.path);
      }
    }
  });

  it("answer a name whose hash is not the current one with 404, not cached", async () => {
    for (const asset of ASSETS) {
      const stale = asset.path.replace(/-[0-9a-f]{16}\.(js|css)$/, "-0000000000000000.$1");
      const response = await t.app.inject({ method: "GET", url: stale });
      assert.equal(response.statusCode, 404, stale);
      assert.equal(response.headers["cache-control"], "no-store", stale);
    }
  });
});
