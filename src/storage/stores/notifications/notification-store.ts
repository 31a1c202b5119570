import { sql } from "kysely";
import { isNotificationKind, type NotificationParams } from "../../../notifications/domain/kinds.js";
import type { StoredNotification } from "../../../notifications/domain/render.js";
import type { NewNotificationRecord, NotificationStore } from "../../../notifications/ports.js";
import type { DbOrTx } from "../../driver/database.js";
import type { NotificationsTable } from "../../schema/notifications.js";

type Row = Omit<NotificationsTable, "id"> & { id: number | string };

const COLUMNS = ["id", "uid", "kind", "params", "object_type", "object_id", "created_at"] as const;

/** The text's parameters as stored; a value that is not a JSON object of strings reads as none. */
function paramsOf(json: string): NotificationParams {
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  } catch {
    return {};
  }
}

/** A row of a kind this release does not know (written by a newer one) is left out. */
function notificationOf(row: Row): StoredNotification | undefined {
  if (!isNotificationKind(row.kind)) return undefined;
  return {
    id: Number(row.id),
    uid: row.uid,
    kind: row.kind,
    params: paramsOf(row.params),
    objectType: row.object_type,
    objectId: row.object_id,
    createdAt: Number(row.created_at),
  };
}

/** Notifications (table notifications, migration 0025): the same statements on both dialects. */
export class SqlNotificationStore implements NotificationStore {
  constructor(private readonly db: DbOrTx) {}

  async insert(record: NewNotificationRecord): Promise<number> {
    const row = await this.db
      .insertInto("notifications")
      .values({
        uid: record.uid,
        kind: record.kind,
        params: JSON.stringify(record.params),
        object_type: record.objectType,
        object_id: record.objectId,
        created_at: record.createdAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async newestOf(uid: string, limit: number): Promise<StoredNotification[]> {
    const rows = await this.db
      .selectFrom("notifications")
      .select(COLUMNS)
      .where("uid", "=", uid)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.flatMap((row) => notificationOf(row) ?? []);
  }

  async findOwn(uid: string, id: number): Promise<StoredNotification | undefined> {
    const row = await this.db
      .selectFrom("notifications")
      .select(COLUMNS)
      .where("uid", "=", uid)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? notificationOf(row) : undefined;
  }

  async deleteOwn(uid: string, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom("notifications").where("uid", "=", uid).where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAllOf(uid: string): Promise<number> {
    const result = await this.db.deleteFrom("notifications").where("uid", "=", uid).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteAbout(uid: string, objectType: string, objectId: string): Promise<number> {
    const result = await this.db
      .deleteFrom("notifications")
      .where("uid", "=", uid)
      .where("object_type", "=", objectType)
      .where("object_id", "=", objectId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async purge(createdBefore: number, keepPerUser: number): Promise<number> {
    // Each user's rows ranked newest first (a window function: SQLite 3.25+, PostgreSQL).
    const ranked = this.db
      .selectFrom("notifications")
      .select(["id", sql<number>`row_number() over (partition by uid order by id desc)`.as("rank")]);
    const result = await this.db
      .deleteFrom("notifications")
      .where((eb) =>
        eb.or([
          eb("created_at", "<", createdBefore),
          eb("id", "in", eb.selectFrom(ranked.as("ranked")).select("ranked.id").where("ranked.rank", ">", keepPerUser)),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
