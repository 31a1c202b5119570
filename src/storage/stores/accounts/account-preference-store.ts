import type { PreferenceStore, StoredPreference, UserRowPreference } from "../../../accounts/ports.js";
import type { DbOrTx } from "../../driver/database.js";

/** The users column that holds each preference of the user row. */
const USER_COLUMNS = { language: "language", timeZone: "timezone" } as const satisfies Record<UserRowPreference, string>;

/** Per-user preferences (table user_preferences) and the two kept on the users row. */
export class SqlPreferenceStore implements PreferenceStore {
  constructor(private readonly db: DbOrTx) {}

  async get(uid: string, app: string, key: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("user_preferences")
      .select("config_value")
      .where("uid", "=", uid)
      .where("app", "=", app)
      .where("config_key", "=", key)
      .executeTakeFirst();
    return row?.config_value;
  }

  async list(uid: string, app?: string): Promise<StoredPreference[]> {
    let query = this.db.selectFrom("user_preferences").select(["app", "config_key", "config_value"]).where("uid", "=", uid);
    if (app !== undefined) query = query.where("app", "=", app);
    const rows = await query.orderBy("app").orderBy("config_key").execute();
    return rows.map((row) => ({ app: row.app, key: row.config_key, value: row.config_value }));
  }

  async put(uid: string, app: string, key: string, value: string): Promise<void> {
    await this.db
      .insertInto("user_preferences")
      .values({ uid, app, config_key: key, config_value: value })
      .onConflict((c) => c.columns(["uid", "app", "config_key"]).doUpdateSet({ config_value: value }))
      .execute();
  }

  async delete(uid: string, app: string, key: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("user_preferences")
      .where("uid", "=", uid)
      .where("app", "=", app)
      .where("config_key", "=", key)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async setOnUser(uid: string, preference: UserRowPreference, value: string): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ [USER_COLUMNS[preference]]: value })
      .where("uid", "=", uid)
      .execute();
  }

  async clearOnUser(uid: string, preference: UserRowPreference): Promise<boolean> {
    const column = USER_COLUMNS[preference];
    const result = await this.db
      .updateTable("users")
      .set({ [column]: null })
      .where("uid", "=", uid)
      .where(column, "is not", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
