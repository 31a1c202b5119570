import type { ValueSigner } from "../crypto/value-signer.js";

/** nextcloud/notify_push `lib/Controller/AuthController.php`: a pre-auth token is valid 15 s. */
export const PRE_AUTH_LIFETIME_SECONDS = 15;

/**
 * Pre-auth tokens (nextcloud/notify_push `POST /index.php/apps/notify_push/pre_auth`): a client
 * already signed in gets a token that opens a websocket with an empty user name. Signed rather
 * than stored (HMAC-SHA-256 over the user id and expiry, crypto/value-signer.ts), so any node that
 * shares the data directory's key file accepts it, and nothing is left to purge.
 */
export class PreAuthTokens {
  constructor(
    private readonly signer: ValueSigner,
    private readonly nowSeconds: () => number,
  ) {}

  issue(uid: string): string {
    const value = `${Buffer.from(uid, "utf8").toString("base64url")}.${this.nowSeconds() + PRE_AUTH_LIFETIME_SECONDS}`;
    return `${value}.${this.signer.sign(value)}`;
  }

  /** The user a token was issued to while it is valid, else undefined. */
  verify(token: string): string | undefined {
    const [encodedUid, expiry, signature, ...rest] = token.split(".");
    if (encodedUid === undefined || expiry === undefined || signature === undefined || rest.length > 0) return undefined;
    if (!/^[0-9]{1,12}$/.test(expiry) || !this.signer.verify(`${encodedUid}.${expiry}`, signature)) return undefined;
    if (Number(expiry) < this.nowSeconds()) return undefined;
    return Buffer.from(encodedUid, "base64url").toString("utf8");
  }
}
