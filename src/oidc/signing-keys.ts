import {
  calculateJwkThumbprint,
  compactVerify,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  SignJWT,
} from "jose";
import type { Clock } from "../clock.js";
import type { SecretSealer } from "../crypto/secret-box.js";
import type { SigningKeyStore, StoredSigningKey } from "./ports.js";

export const SIGNING_ALGORITHM = "RS256";

/** The key that signs: the newest live one (ties by kid, so every node picks the same). */
function signingKeyOf(keys: StoredSigningKey[]): StoredSigningKey | undefined {
  return keys.filter((k) => k.retiredAt === null).sort((a, b) => b.createdAt - a.createdAt || (a.kid < b.kid ? -1 : 1))[0];
}

/**
 * The ID token signing keys (RFC 7517 JWKs). Read from the store on every use (no cache of the set), so a
 * rotation on one node is seen by all at once; only the imported private keys are memoised, by kid.
 * A retired key is published for `graceSeconds` after its retirement, so tokens it signed still verify.
 */
export class SigningKeys {
  private readonly privateKeys = new Map<string, CryptoKey | Uint8Array>();
  /** The generation under way on this node, shared by whoever asks meanwhile (the start and a first request). */
  private generating: Promise<StoredSigningKey> | undefined;

  constructor(
    private readonly store: SigningKeyStore,
    private readonly sealer: SecretSealer,
    private readonly clock: Clock,
    private readonly graceSeconds: () => number,
  ) {}

  /** The signing key, generated on first use when there is none (a fresh install). */
  async ensure(): Promise<StoredSigningKey> {
    const current = signingKeyOf(await this.store.list());
    if (current) return current;
    this.generating ??= this.generateFirst().finally(() => {
      this.generating = undefined;
    });
    return this.generating;
  }

  private async generateFirst(): Promise<StoredSigningKey> {
    await this.store.insert(await this.generate());
    // Two nodes starting at once may both generate: both keys are live and published, and every
    // node signs with the same one of them (signingKeyOf's order).
    const created = signingKeyOf(await this.store.list());
    if (!created) throw new Error("no OpenID Connect signing key after generating one");
    return created;
  }

  /** `oidc:rotate-key`: a new signing key; the old ones are retired (published for the grace period). */
  async rotate(): Promise<{ kid: string; retired: string[]; deleted: number }> {
    const now = this.clock.nowSeconds();
    const before = (await this.store.list()).filter((k) => k.retiredAt === null).map((k) => k.kid);
    const key = await this.generate();
    await this.store.insert(key, now);
    const deleted = await this.store.deleteRetiredBefore(now - this.graceSeconds());
    return { kid: key.kid, retired: before, deleted };
  }

  /** RFC 7517 JWK Set of the public keys that verify: live ones and those retired within the grace period. */
  async publicJwks(): Promise<{ keys: JWK[] }> {
    const cutoff = this.clock.nowSeconds() - this.graceSeconds();
    // The signing key first, then the retired ones, most recently retired first.
    const order = (k: StoredSigningKey) => (k.retiredAt === null ? Number.POSITIVE_INFINITY : k.retiredAt);
    const keys = (await this.store.list())
      .filter((k) => k.retiredAt === null || k.retiredAt > cutoff)
      .sort((a, b) => order(b) - order(a) || b.createdAt - a.createdAt || (a.kid < b.kid ? -1 : 1));
    return { keys: keys.map((k) => k.publicJwk) };
  }

  /**
   * A JWT signed with the current key, its `kid` in the header (RFC 7515 §4.1.4); `typ` (RFC 7515
   * §4.1.9) `JWT` unless the token's profile names another (a logout token's `logout+jwt`).
   */
  async sign(claims: Record<string, unknown>, typ = "JWT"): Promise<string> {
    const key = await this.ensure();
    return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ }).sign(await this.privateKeyOf(key));
  }

  /** The claims of a JWT signed by one of the published keys; undefined when the signature does not verify. */
  async verifiedClaims(jwt: string): Promise<Record<string, unknown> | undefined> {
    try {
      const verified = await compactVerify(jwt, createLocalJWKSet(await this.publicJwks()), {
        algorithms: [SIGNING_ALGORITHM],
      });
      const claims: unknown = JSON.parse(new TextDecoder().decode(verified.payload));
      return typeof claims === "object" && claims !== null ? (claims as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }

  private async privateKeyOf(key: StoredSigningKey): Promise<CryptoKey | Uint8Array> {
    let imported = this.privateKeys.get(key.kid);
    if (!imported) {
      imported = await importJWK(JSON.parse(this.sealer.decrypt(key.privateJwkSealed)) as JWK, key.alg);
      this.privateKeys.set(key.kid, imported);
    }
    return imported;
  }

  private async generate(): Promise<StoredSigningKey> {
    const pair = await generateKeyPair(SIGNING_ALGORITHM, { modulusLength: 2048, extractable: true });
    const publicJwk = await exportJWK(pair.publicKey);
    // RFC 7638 thumbprint as kid: derived from the key itself, unique without coordination between nodes.
    const kid = await calculateJwkThumbprint(publicJwk);
    const privateJwk = await exportJWK(pair.privateKey);
    return {
      kid,
      alg: SIGNING_ALGORITHM,
      publicJwk: { ...publicJwk, kid, alg: SIGNING_ALGORITHM, use: "sig" },
      privateJwkSealed: this.sealer.encrypt(JSON.stringify({ ...privateJwk, kid, alg: SIGNING_ALGORITHM })),
      createdAt: this.clock.nowSeconds(),
      retiredAt: null,
    };
  }
}
