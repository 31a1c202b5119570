import { createHmac, hkdfSync } from "node:crypto";
import { loadOrCreateKey } from "./secret-box.js";
import { constantTimeEqual } from "./secrets.js";

const SIGNING_KEY_BYTES = 32;

/** Signs short values with HMAC-SHA-256 (RFC 2104) and checks such signatures. */
export interface ValueSigner {
  /** The value's signature, base64url. */
  sign(value: string): string;
  /** Whether `signature` is the value's, compared in constant time. */
  verify(value: string, signature: string): boolean;
}

/**
 * A signer whose HMAC key is derived for `purpose` (HKDF-SHA-256, RFC 5869 §2, `purpose` as the
 * info) from the key file `dataDir/fileName`, read or created on first use. The file's key also
 * seals with AES-GCM (secret-box.ts): the derivation keeps one key from serving two algorithms, and
 * one purpose's signatures from being valid for another.
 */
export function keyFileSigner(dataDir: string, fileName: string, purpose: string): ValueSigner {
  let key: Buffer | undefined;
  const keyOf = () =>
    (key ??= Buffer.from(
      hkdfSync("sha256", loadOrCreateKey(dataDir, fileName), Buffer.alloc(0), `keystream ${purpose}`, SIGNING_KEY_BYTES),
    ));
  const sign = (value: string) => createHmac("sha256", keyOf()).update(value, "utf8").digest("base64url");
  return { sign, verify: (value, signature) => constantTimeEqual(sign(value), signature) };
}
