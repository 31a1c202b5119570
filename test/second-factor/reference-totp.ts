import { createHmac } from "node:crypto";

/**
 * An independent TOTP (RFC 6238 §4 over RFC 4226 §5.3), written here with node:crypto's HMAC only:
 * the reference the product's library-backed codes are checked against.
 */
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 §6 Base32, no padding, upper case. */
export function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.replace(/=+$/, "").toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not Base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** HOTP(K, C) with `digits` digits (RFC 4226 §5.3: dynamic truncation, then modulo 10^digits). */
export function hotp(key: Buffer, counter: number, digits: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = ((mac.readUInt32BE(offset) & 0x7fffffff) >>> 0) % 10 ** digits;
  return String(binary).padStart(digits, "0");
}

/** TOTP at `seconds` (X = 30, T0 = 0), six digits unless told otherwise. */
export function referenceTotp(base32Secret: string, seconds: number, digits = 6): string {
  return hotp(base32Decode(base32Secret), Math.floor(seconds / 30), digits);
}
