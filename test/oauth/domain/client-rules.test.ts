import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inEnglish } from "../../../src/i18n/index.js";
import { parseLenientBoolean, trustRefused, validateNewClient } from "../../../src/oauth/domain/client-rules.js";
import { isLegacyDesktopRefreshLoop } from "../../../src/oauth/domain/legacy-clients.js";
import { cleanupCutoff, isExpired } from "../../../src/oauth/domain/lifetimes.js";

const valid = {
  name: "App",
  clientId: "i".repeat(32),
  secret: "s".repeat(32),
  redirectUri: "https://app.example.com/cb",
  allowSubdomains: "false",
  trusted: "false",
  forceTrust: undefined,
};

describe("validateNewClient() (research A.5 order)", () => {
  const problem = (changes: Partial<typeof valid>) => {
    const result = validateNewClient({ ...valid, ...changes });
    return "problem" in result ? inEnglish(result.problem) : undefined;
  };
  it("accepts 32-character id and secret and converts the booleans", () => {
    const result = validateNewClient({ ...valid, allowSubdomains: "true" });
    assert.ok("fields" in result);
    assert.equal(result.fields.allowSubdomains, true);
    assert.equal(result.fields.trusted, false);
  });
  it("checks id, secret, redirect, allow-sub-domains, trusted, in that order", () => {
    assert.equal(problem({ clientId: "short", secret: "short" }), "The client id should be at least 32 characters long");
    assert.equal(problem({ secret: "short", redirectUri: "x" }), "The client secret should be at least 32 characters long");
    assert.equal(problem({ redirectUri: "x", allowSubdomains: "maybe" }), "The redirect URL is not valid.");
    assert.equal(problem({ allowSubdomains: "yes", trusted: "yes" }), "Please enter true or false for allowed-sub-domains.");
    assert.equal(problem({ trusted: "1" }), "Please enter true or false for trusted.");
  });
});

describe("trustRefused() (spec: Errors rule 2)", () => {
  it("refuses trusting localhost or 127.0.0.1 without force-trust", () => {
    assert.equal(trustRefused("http://localhost:*", true, false), true);
    assert.equal(trustRefused("http://127.0.0.1:8080/cb", true, false), true);
    assert.equal(trustRefused("http://localhost/cb", true, false), true);
  });
  it("allows it with force-trust, allows untrusted localhost, allows trusted public hosts", () => {
    assert.equal(trustRefused("http://localhost:*", true, true), false);
    assert.equal(trustRefused("http://localhost:*", false, false), false);
    assert.equal(trustRefused("https://app.example.com/cb", true, false), false);
  });
  it("force-trust is lenient: 1, true, on, yes", () => {
    for (const yes of ["1", "true", "on", "yes", "TRUE"]) assert.equal(parseLenientBoolean(yes), true, yes);
    for (const no of ["0", "false", "nope", "", undefined]) assert.equal(parseLenientBoolean(no), false, String(no));
  });
});

describe("isLegacyDesktopRefreshLoop() (research A.1.2, mirall 2.4.2)", () => {
  it("matches the 2.4.2 desktop client, case-insensitively", () => {
    assert.equal(isLegacyDesktopRefreshLoop("Mozilla/5.0 (Linux) mirall/2.4.2 (build 9800)"), true);
    assert.equal(isLegacyDesktopRefreshLoop("MIRALL/2.4.2"), true);
  });
  it("does not match other versions, other clients or a missing header", () => {
    assert.equal(isLegacyDesktopRefreshLoop("Mozilla/5.0 mirall/2.5.0"), false);
    assert.equal(isLegacyDesktopRefreshLoop("Mozilla/5.0 notmirall/2.4.2"), false);
    assert.equal(isLegacyDesktopRefreshLoop(undefined), false);
  });
});

describe("lifetimes", () => {
  it("an item is expired when now ≥ expires", () => {
    assert.equal(isExpired(100, 99), false);
    assert.equal(isExpired(100, 100), true);
  });
  it("the cleanup cutoff is one week before now", () => {
    assert.equal(cleanupCutoff(1_000_000), 1_000_000 - 604_800);
  });
});
