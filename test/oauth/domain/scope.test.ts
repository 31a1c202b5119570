import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { inEnglish } from "../../../src/i18n/index.js";
import { consentCovers, grantedScope, SCOPES, scopeAllows, scopeValues, trustCovers } from "../../../src/oauth/domain/scope.js";

describe("the scope catalogue", () => {
  it("a request without scope is granted the account scope; unknown values are ignored; none known is refused", () => {
    assert.equal(grantedScope(undefined, false), "account");
    assert.equal(grantedScope("  ", false), "account");
    assert.equal(grantedScope("email openid unknown openid", false), "openid email");
    assert.equal(grantedScope("read:user", false), undefined);
  });

  it("a client with account access gets the account scope beside what it asks for", () => {
    assert.equal(grantedScope("openid offline_access email profile", true), "account openid profile email offline_access");
    assert.equal(grantedScope("read:user", true), "account");
  });

  it("the account scope allows everything; any other scope only itself; a grant without scope is an account grant", () => {
    assert.equal(scopeAllows("account", "files"), true);
    assert.equal(scopeAllows(null, "activity:write"), true);
    assert.equal(scopeAllows("openid profile email offline_access", "files"), false);
    assert.equal(scopeAllows("files", "files"), true);
    assert.equal(scopeAllows("files", "activity:read"), false);
    assert.equal(scopeAllows("activity:write", "activity:read"), false);
  });

  it("consent covers a request only for what was consented; the account scope covers the API scopes, not the sign-in claims", () => {
    assert.equal(consentCovers(scopeValues("openid"), "openid"), true);
    assert.equal(consentCovers(scopeValues("openid"), "openid email"), false);
    assert.equal(consentCovers(scopeValues("account"), "files activity:read"), true);
    assert.equal(consentCovers(scopeValues("account"), "openid email"), false);
  });

  it("a trusted client without a list is trusted for every scope; with one, only for it", () => {
    assert.equal(trustCovers(null, "account openid email"), true);
    assert.equal(trustCovers("openid profile", "openid profile"), true);
    assert.equal(trustCovers("openid profile", "openid files"), false);
  });

  it("docs/security.md shows the catalogue: names, kinds and the consent page's English lines, in order", () => {
    const docs = fs.readFileSync(new URL("../../../docs/security.md", import.meta.url), "utf8");
    const section = docs.slice(docs.indexOf("## Scopes"), docs.indexOf("## Brute-force throttling"));
    const rows = section
      .split("\n")
      .filter((line) => /^\| `[^`]+` \|/.test(line))
      .map((line) => line.split("|").map((cell) => cell.trim()));
    assert.deepEqual(
      rows.map((cells) => [cells[1]?.replaceAll("`", ""), cells[2]]),
      SCOPES.map((scope) => [scope.name, scope.kind]),
    );
    for (const [index, scope] of SCOPES.entries()) {
      if (scope.consentLine === null) continue;
      assert.equal(rows[index]?.[3], inEnglish({ key: scope.consentLine }), `the consent line of ${scope.name}`);
    }
  });
});
