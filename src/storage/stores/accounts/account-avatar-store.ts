import type { AvatarStore, StoredAvatar } from "../../../accounts/ports.js";
import type { DbOrTx } from "../../driver/database.js";
import { PreparedQuery } from "../../driver/prepared.js";

/** User avatars (table user_avatars): the image as base64 text, portable to both databases. */
export class SqlAvatarStore implements AvatarStore {
  /** Asked on every userinfo request (see PreparedQuery). */
  private readonly contentTypeByUid: PreparedQuery<{ uid: string }, { content_type: string }>;

  constructor(private readonly db: DbOrTx) {
    this.contentTypeByUid = new PreparedQuery((slot) =>
      db.selectFrom("user_avatars").select("content_type").where("uid", "=", slot("uid")),
    );
  }

  async put(uid: string, avatar: StoredAvatar): Promise<void> {
    const row = { uid, content_type: avatar.contentType, data: avatar.data.toString("base64"), updated_at: avatar.updatedAt };
    await this.db
      .insertInto("user_avatars")
      .values(row)
      .onConflict((oc) =>
        oc.column("uid").doUpdateSet({ content_type: row.content_type, data: row.data, updated_at: row.updated_at }),
      )
      .execute();
  }

  async get(uid: string): Promise<StoredAvatar | undefined> {
    const row = await this.db.selectFrom("user_avatars").selectAll().where("uid", "=", uid).executeTakeFirst();
    if (!row) return undefined;
    return { contentType: row.content_type, data: Buffer.from(row.data, "base64"), updatedAt: row.updated_at };
  }

  async contentTypeOf(uid: string): Promise<string | undefined> {
    return (await this.contentTypeByUid.first(this.db, { uid }))?.content_type;
  }

  async delete(uid: string): Promise<boolean> {
    const result = await this.db.deleteFrom("user_avatars").where("uid", "=", uid).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
