import type { PasswordConfirmationStore } from "../../../accounts/ports.js";
import type { DbOrTx } from "../../driver/database.js";

/** Password confirmations on the sessions table (column password_confirmed_at, migration 0018). */
export class SqlPasswordConfirmationStore implements PasswordConfirmationStore {
  constructor(private readonly db: DbOrTx) {}

  async confirmedAt(idHash: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom("sessions")
      .select(["created_at", "password_confirmed_at"])
      .where("id_hash", "=", idHash)
      .executeTakeFirst();
    if (!row) return undefined;
    const login = Number(row.created_at);
    return row.password_confirmed_at === null ? login : Math.max(login, Number(row.password_confirmed_at));
  }

  async record(idHash: string, at: number): Promise<void> {
    await this.db.updateTable("sessions").set({ password_confirmed_at: at }).where("id_hash", "=", idHash).execute();
  }
}
