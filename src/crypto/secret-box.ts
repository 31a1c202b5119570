import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const KEY_BYTES = 32;
const IV_BYTES = 12;
const FORMAT = "v1";

/**
 * Encrypts secrets that must be shown again later (OAuth client secrets, listed by
 * `oauth2:list-clients`) with AES-256-GCM. The envelope is `v1.<iv>.<tag>.<ciphertext>` in base64url;
 * the authentication tag makes a tampered or foreign value fail instead of decrypting to garbage.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`a secret box key has ${KEY_BYTES} bytes`);
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [FORMAT, iv, cipher.getAuthTag(), ciphertext]
      .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
      .join(".");
  }

  decrypt(envelope: string): string {
    const [format, iv, tag, ciphertext] = envelope.split(".");
    if (format !== FORMAT || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new Error("not a secret box envelope");
    }
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  }
}

/**
 * The key file in the data directory, created on first use (mode 0600). Creation is exclusive
 * (`wx`), so when two processes start on a fresh data directory one writes and both read the same key.
 */
export function loadOrCreateKey(dataDir: string, fileName: string): Buffer {
  const file = path.join(dataDir, fileName);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(KEY_BYTES).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
  if (key.length !== KEY_BYTES) throw new Error(`${file} does not hold a ${KEY_BYTES}-byte base64 key`);
  return key;
}

/** What sealing needs from a box (the key file is opened on first use). */
export interface SecretSealer {
  encrypt(plaintext: string): string;
  decrypt(envelope: string): string;
}

/** A SecretBox whose key file (`dataDir/fileName`) is read or created on first use, not at start. */
export function keyFileSecretBox(dataDir: string, fileName: string): SecretSealer {
  let box: SecretBox | undefined;
  const open = () => (box ??= new SecretBox(loadOrCreateKey(dataDir, fileName)));
  return {
    encrypt: (plaintext) => open().encrypt(plaintext),
    decrypt: (envelope) => open().decrypt(envelope),
  };
}
