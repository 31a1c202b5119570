import type { Clock } from "../clock.js";
import { randomAlphanumeric, sha256Hex } from "../crypto/secrets.js";
import type { DbOrTx } from "../storage/database.js";
import { PreparedQuery } from "../storage/prepared.js";
import { AccountError } from "./errors.js";

export interface AppPassword {
  id: number;
  uid: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** 72 alphanumeric characters, the length of Nextcloud's app passwords. */
const APP_PASSWORD_LENGTH = 72;

/**
 * "Last used" is written at most this often per app password: a desktop client authenticates
 * every WebDAV request with it, and a write per request would be the cost of the request
 * (Nextcloud updates a token's last activity at most once a minute too).
 */
const LAST_USED_RESOLUTION_SECONDS = 60;

/**
 * App passwords: named, revocable device credentials for HTTP Basic. Only their SHA-256 is stored;
 * the plain value is returned once, at creation.
 */
export class AppPasswords {
  /** Every Basic-authenticated request may carry an app password (see PreparedQuery). */
  private readonly byTokenHash: PreparedQuery<{ tokenHash: string }, { id: number; uid: string; last_used_at: number | null }>;

  constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock,
  ) {
    this.byTokenHash = new PreparedQuery((slot) =>
      db.selectFrom("app_passwords").select(["id", "uid", "last_used_at"]).where("token_hash", "=", slot("tokenHash")),
    );
  }

  async create(uid: string, name: string): Promise<{ appPassword: AppPassword; secret: string }> {
    const trimmed = name.trim();
    if (trimmed === "" || trimmed.length > 255) {
      throw new AccountError("invalid_name", "invalidAppPasswordName");
    }
    const secret = randomAlphanumeric(APP_PASSWORD_LENGTH);
    const createdAt = this.clock.nowSeconds();
    const row = await this.db
      .insertInto("app_passwords")
      .values({ uid, name: trimmed, token_hash: sha256Hex(secret), created_at: createdAt, last_used_at: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { appPassword: { id: Number(row.id), uid, name: trimmed, createdAt, lastUsedAt: null }, secret };
  }

  async list(uid: string): Promise<AppPassword[]> {
    const rows = await this.db
      .selectFrom("app_passwords")
      .select(["id", "uid", "name", "created_at", "last_used_at"])
      .where("uid", "=", uid)
      .orderBy("id")
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      uid: r.uid,
      name: r.name,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
    }));
  }

  /** Revokes one of the user's own app passwords; false when it was not theirs or not there. */
  async revoke(uid: string, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom("app_passwords").where("uid", "=", uid).where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The owner of an app password, looked up by digest (an index probe: no timing on the secret). */
  async resolve(secret: string): Promise<{ uid: string; id: number } | undefined> {
    if (secret.length !== APP_PASSWORD_LENGTH) return undefined;
    const row = await this.byTokenHash.first(this.db, { tokenHash: sha256Hex(secret) });
    if (!row) return undefined;
    const now = this.clock.nowSeconds();
    if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_RESOLUTION_SECONDS) {
      await this.db.updateTable("app_passwords").set({ last_used_at: now }).where("id", "=", row.id).execute();
    }
    return { uid: row.uid, id: Number(row.id) };
  }
}
