import type { NewAppPasswordRecord } from "../../accounts/ports.js";
import type { DbOrTx } from "../driver/database.js";

/**
 * Inserts an app password on `db`, a connection or a transaction; returns its id. The app password
 * store's insert, and the Login Flow v2 grant's inside its own transaction (stores/login-flow/).
 */
export async function insertAppPassword(db: DbOrTx, record: NewAppPasswordRecord): Promise<number> {
  const row = await db
    .insertInto("app_passwords")
    .values({
      uid: record.uid,
      name: record.name,
      token_hash: record.tokenHash,
      created_at: record.createdAt,
      last_used_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
