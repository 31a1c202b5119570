import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { matchTotpStep, newTotpSecret, totpKeyUri, totpStepAt } from "../../src/second-factor/domain/totp.js";
import { base32Decode, base32Encode, referenceTotp } from "./reference-totp.js";

/** RFC 6238 Appendix B, the SHA-1 rows: the seed "12345678901234567890" (20 ASCII bytes). */
const SEED = base32Encode(Buffer.from("12345678901234567890", "ascii"));
const APPENDIX_B_SHA1: ReadonlyArray<readonly [number, string]> = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("TOTP as RFC 6238 defines it (SHA-1, 30 s, six digits, one step either side)", () => {
  it("the reference implementation reproduces RFC 6238 Appendix B's SHA-1 vectors (eight digits)", () => {
    assert.equal(SEED, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    for (const [time, code] of APPENDIX_B_SHA1) assert.equal(referenceTotp(SEED, time, 8), code, `T=${time}`);
  });

  it("accepts the six-digit codes of Appendix B's times (their last six digits), at the right time step", () => {
    for (const [time, code] of APPENDIX_B_SHA1) {
      assert.equal(matchTotpStep(SEED, code.slice(-6), time), Math.floor(time / 30), `T=${time}`);
    }
  });

  it("agrees with the node:crypto reference on random secrets and times, and takes exactly one step either side", () => {
    for (let round = 0; round < 50; round++) {
      const secret = newTotpSecret();
      assert.equal(base32Decode(secret).length, 20, "160-bit secrets");
      const now = 1_700_000_000 + Math.floor(Math.random() * 100_000_000);
      const step = totpStepAt(now);
      assert.equal(step, Math.floor(now / 30));
      for (const offset of [-1, 0, 1]) {
        const code = referenceTotp(secret, now + offset * 30);
        // A code of a neighbouring step can equal the current one by chance: then the earliest matching step.
        assert.ok((matchTotpStep(secret, code, now) ?? Number.NaN) <= step + offset, `offset ${offset}`);
        assert.notEqual(matchTotpStep(secret, code, now), undefined, `offset ${offset} accepted`);
      }
      for (const offset of [-2, 2]) {
        const code = referenceTotp(secret, now + offset * 30);
        const near = [-1, 0, 1].map((o) => referenceTotp(secret, now + o * 30));
        if (!near.includes(code)) assert.equal(matchTotpStep(secret, code, now), undefined, `offset ${offset} refused`);
      }
    }
  });

  it("refuses what is not six digits, and reads a code typed with a space", () => {
    const secret = base32Encode(randomBytes(20));
    const now = 1_800_000_000;
    const code = referenceTotp(secret, now);
    assert.equal(matchTotpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, now), totpStepAt(now));
    for (const bad of ["", "12345", "1234567", "abcdef", `${code}0`])
      assert.equal(matchTotpStep(secret, bad, now), undefined, bad);
  });

  it("the key URI is Google Authenticator's format with the RFC 6238 parameters", () => {
    const uri = new URL(totpKeyUri(SEED, "Keystream", "alice"));
    assert.equal(uri.protocol, "otpauth:");
    assert.equal(uri.host, "totp");
    assert.equal(decodeURIComponent(uri.pathname), "/Keystream:alice");
    assert.equal(uri.searchParams.get("secret"), SEED);
    assert.equal(uri.searchParams.get("issuer"), "Keystream");
    assert.equal(uri.searchParams.get("algorithm"), "SHA1");
    assert.equal(uri.searchParams.get("digits"), "6");
    assert.equal(uri.searchParams.get("period"), "30");
  });
});
