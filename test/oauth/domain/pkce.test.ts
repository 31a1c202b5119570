import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { s256Challenge, verifyPkce } from "../../../src/oauth/domain/pkce.js";

describe("verifyPkce() (RFC 7636, research A.1.2 step 6)", () => {
  it("S256: RFC 7636 appendix B test vector", () => {
    assert.equal(s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });
  it("S256: the right verifier is valid, another is invalid, a missing one is invalid", () => {
    const challenge = s256Challenge("verifier-verifier-verifier-verifier-verifier");
    assert.equal(verifyPkce("S256", challenge, "verifier-verifier-verifier-verifier-verifier"), "valid");
    assert.equal(verifyPkce("S256", challenge, "something-else"), "invalid");
    assert.equal(verifyPkce("S256", challenge, undefined), "invalid");
  });
  it("plain: the verifier must be identical to the challenge", () => {
    // issue 16: verifiers are 43–128 unreserved characters (RFC 7636 §4.1), so these are that long.
    const plain = "plain-verifier-0123456789-abcdefghijklmnopqrstuvwxyz";
    assert.equal(verifyPkce("plain", plain, plain), "valid");
    assert.equal(verifyPkce("plain", plain, `${plain.slice(0, -1)}Z`), "invalid");
    assert.equal(verifyPkce(null, plain, plain), "valid", "a challenge without method is plain");
    assert.equal(verifyPkce("", plain, plain), "valid");
  });
  it("a verifier that is not 43–128 unreserved characters is invalid, even identical to a stored plain challenge", () => {
    // A code stored before the authorization endpoint checked challenges may hold such a value.
    for (const verifier of ["abc", "a".repeat(42), "a".repeat(129), `${"a".repeat(42)} `, `${"a".repeat(42)}é`]) {
      assert.equal(verifyPkce("plain", verifier, verifier), "invalid", JSON.stringify(verifier));
    }
  });
  it("none: valid without verifier, invalid when a verifier is sent for a code without challenge", () => {
    assert.equal(verifyPkce(null, null, undefined), "valid");
    assert.equal(verifyPkce(null, null, "abc"), "invalid");
    assert.equal(verifyPkce(null, null, ""), "invalid");
  });
  it("a challenge with no verifier is invalid", () => {
    assert.equal(verifyPkce("plain", "abc", undefined), "invalid");
  });
  it("any other method is not supported", () => {
    assert.equal(verifyPkce("invalid", "abc", "abc"), "unsupported_method");
    assert.equal(verifyPkce("s256", "abc", "abc"), "unsupported_method", "method names are case-sensitive");
  });
});
