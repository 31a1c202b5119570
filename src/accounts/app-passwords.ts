import { type AuditTrail, NO_AUDIT } from "../audit/recorder.js";
import type { Clock } from "../clock.js";
import { randomAlphanumeric, sha256Hex } from "../crypto/secrets.js";
import { succeeded } from "../refusal.js";
import { type AccountResult, accountRefusal } from "./errors.js";
import type { AppPassword, AppPasswordStore, NewAppPasswordRecord } from "./ports.js";

/** 72 alphanumeric characters, the length of Nextcloud's app passwords. */
const APP_PASSWORD_LENGTH = 72;

/**
 * "Last used" is written at most this often per app password: a desktop client authenticates
 * every WebDAV request with it, and a write per request would be the cost of the request
 * (Nextcloud updates a token's last activity at most once a minute too).
 */
const LAST_USED_RESOLUTION_SECONDS = 60;

/**
 * A new app password for `uid`, named `name` (trimmed; 1 to 255 characters, else refused `invalid_name`):
 * the record to store, with only the secret's SHA-256, and the secret itself, to show once.
 * Login Flow v2 writes the record inside its grant's transaction; AppPasswords.create otherwise.
 */
export function newAppPassword(
  uid: string,
  name: string,
  createdAt: number,
): AccountResult<{ record: NewAppPasswordRecord; secret: string }> {
  const trimmed = name.trim();
  if (trimmed === "" || trimmed.length > 255) return accountRefusal("invalid_name", "invalidAppPasswordName");
  const secret = randomAlphanumeric(APP_PASSWORD_LENGTH);
  return succeeded({ record: { uid, name: trimmed, tokenHash: sha256Hex(secret), createdAt }, secret });
}

/**
 * App passwords: named, revocable device credentials for HTTP Basic. Only their SHA-256 is stored;
 * the plain value is returned once, at creation.
 */
/** Who is told of app passwords created and revoked, given when the service is built. */
export interface AppPasswordListeners {
  /** Told the user and the name of each app password created here (the user is notified of it). */
  created?: (uid: string, name: string) => Promise<void>;
  /** Told the user whose app passwords were revoked, after the revocation (the push hub closes their sockets). */
  revoked?: (uid: string) => Promise<void>;
}

export class AppPasswords {
  constructor(
    private readonly store: AppPasswordStore,
    private readonly clock: Clock,
    private readonly audit: AuditTrail = NO_AUDIT,
    private readonly listeners: AppPasswordListeners = {},
  ) {}

  async create(uid: string, name: string): Promise<AccountResult<{ appPassword: AppPassword; secret: string }>> {
    const made = newAppPassword(uid, name, this.clock.nowSeconds());
    if (!made.ok) return made;
    const { record, secret } = made.value;
    const id = await this.store.insert(record);
    this.audit.record("app_password.created", { uid, subject: { type: "app_password", id: record.name }, detail: { id } });
    await this.listeners.created?.(uid, record.name);
    return succeeded({ appPassword: { id, uid, name: record.name, createdAt: record.createdAt, lastUsedAt: null }, secret });
  }

  list(uid: string): Promise<AppPassword[]> {
    return this.store.listOf(uid);
  }

  /** Revokes one of the user's own app passwords; false when it was not theirs or not there. */
  async revoke(uid: string, id: number): Promise<boolean> {
    const revoked = await this.store.deleteOwn(uid, id);
    if (revoked) {
      this.audit.record("app_password.revoked", { uid, subject: { type: "app_password", id: String(id) }, detail: { id } });
      await this.revoked(uid);
    }
    return revoked;
  }

  /** Revokes every app password of the user (a password change that signs out every device); how many went. */
  async revokeAllOf(uid: string): Promise<number> {
    const count = await this.store.deleteAllOf(uid);
    if (count > 0) {
      this.audit.record("app_password.revoked", { uid, subject: { type: "app_password", id: "*" }, detail: { count } });
      await this.revoked(uid);
    }
    return count;
  }

  private async revoked(uid: string): Promise<void> {
    await this.listeners.revoked?.(uid);
  }

  /** The owner of an app password, looked up by digest (an index probe: no timing on the secret). */
  async resolve(secret: string): Promise<{ uid: string; id: number } | undefined> {
    if (secret.length !== APP_PASSWORD_LENGTH) return undefined;
    const found = await this.store.findByTokenHash(sha256Hex(secret));
    if (!found) return undefined;
    const now = this.clock.nowSeconds();
    if (found.lastUsedAt === null || now - found.lastUsedAt >= LAST_USED_RESOLUTION_SECONDS) {
      await this.store.markUsed(found.id, now);
    }
    return { uid: found.uid, id: found.id };
  }
}
