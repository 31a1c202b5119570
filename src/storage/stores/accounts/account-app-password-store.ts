import type { AppPassword, AppPasswordStore, NewAppPasswordRecord } from "../../../accounts/ports.js";
import type { DbOrTx } from "../../driver/database.js";
import { PreparedQuery } from "../../driver/prepared.js";
import { insertAppPassword } from "../../statements/app-password-insert.js";

/** App passwords (table app_passwords), found by the SHA-256 hex of their secret. */
export class SqlAppPasswordStore implements AppPasswordStore {
  /** Every Basic-authenticated request may carry an app password (see PreparedQuery). */
  private readonly byTokenHash: PreparedQuery<{ tokenHash: string }, { id: number; uid: string; last_used_at: number | null }>;

  constructor(private readonly db: DbOrTx) {
    this.byTokenHash = new PreparedQuery((slot) =>
      db.selectFrom("app_passwords").select(["id", "uid", "last_used_at"]).where("token_hash", "=", slot("tokenHash")),
    );
  }

  insert(record: NewAppPasswordRecord): Promise<number> {
    return insertAppPassword(this.db, record);
  }

  async listOf(uid: string): Promise<AppPassword[]> {
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

  async deleteOwn(uid: string, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom("app_passwords").where("uid", "=", uid).where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async findByTokenHash(tokenHash: string): Promise<{ id: number; uid: string; lastUsedAt: number | null } | undefined> {
    const row = await this.byTokenHash.first(this.db, { tokenHash });
    return row && { id: Number(row.id), uid: row.uid, lastUsedAt: row.last_used_at };
  }

  async markUsed(id: number, at: number): Promise<void> {
    const used = await this.db
      .updateTable("app_passwords")
      .set({ last_used_at: at })
      .where("id", "=", id)
      .returning("uid")
      .executeTakeFirst();
    if (used) await this.db.updateTable("users").set({ last_login_at: at }).where("uid", "=", used.uid).execute();
  }

  async deleteAllOf(uid: string): Promise<number> {
    const result = await this.db.deleteFrom("app_passwords").where("uid", "=", uid).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
