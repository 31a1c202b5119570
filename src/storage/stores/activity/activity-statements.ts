import type { StreamPageRange } from "../../../activity/ports.js";
import type { Db } from "../../driver/database.js";
import { PreparedQuery, type SlotFactory } from "../../driver/prepared.js";

/** A page's range with the types skipped in it: what every page statement reads. */
export interface StreamPageQuery extends StreamPageRange {
  /** Types the user hid; rows of these types are skipped (a residual condition on the range scan). */
  hiddenTypes: readonly string[];
}

/** A page's key: in every stream index, so the range scan needs no row (activity-store.ts). */
export interface PageKey {
  activity_id: number;
}

/** Display names are looked up for at most this many users with a statement prepared per count. */
const PREPARED_NAME_COUNTS = 8;

/** What makes two page queries the same statement: which conditions it has, not their values. */
export function pageShape(query: StreamPageQuery): string {
  const { selection, bound } = query;
  return [
    selection.isSelf === undefined ? "" : "self",
    selection.category === undefined ? "" : "category",
    selection.object === undefined ? "" : "object",
    bound ? bound.comparison : "",
    query.sort,
    query.hiddenTypes.length,
  ].join("/");
}

/** A page query's values, by the slot names of pageRange. */
export function pageValues(query: StreamPageQuery): Record<string, unknown> {
  const values: Record<string, unknown> = {
    uid: query.uid,
    isSelf: query.selection.isSelf,
    category: query.selection.category,
    objectType: query.selection.object?.type,
    objectId: query.selection.object?.id,
    boundTimestamp: query.bound?.timestamp,
    boundId: query.bound?.activityId,
    fetch: query.fetch,
  };
  query.hiddenTypes.forEach((type, i) => {
    values[`hidden${i}`] = type;
  });
  return values;
}

/**
 * A page's conditions and order on the user's rows, with its values in slots (pageValues' names):
 * the range every page statement scans (see ActivityStore.pageRange for the built form).
 */
export function pageRange(db: Db, shape: StreamPageQuery, slot: SlotFactory<Record<string, unknown>>) {
  const { selection, bound } = shape;
  let q = db.selectFrom("activity").where("affecteduser", "=", slot("uid") as string);
  if (selection.isSelf !== undefined) q = q.where("is_self", "=", slot("isSelf") as number);
  if (selection.category !== undefined) q = q.where("category", "=", slot("category") as string);
  if (selection.object !== undefined) {
    q = q.where("object_type", "=", slot("objectType") as string).where("object_id", "=", slot("objectId") as number);
  }
  if (bound) {
    q = q.where(({ eb, refTuple, tuple }) =>
      eb(
        refTuple("timestamp", "activity_id"),
        bound.comparison,
        tuple(slot("boundTimestamp") as number, slot("boundId") as number),
      ),
    );
  }
  if (shape.hiddenTypes.length > 0) {
    q = q.where(
      "type",
      "not in",
      shape.hiddenTypes.map((_, i) => slot(`hidden${i}`) as string),
    );
  }
  return q
    .orderBy("timestamp", shape.sort)
    .orderBy("activity_id", shape.sort)
    .limit(slot("fetch") as number);
}

/**
 * The statements of every activity page, compiled once (PreparedQuery: building and compiling
 * them with Kysely costs more than running them, docs/performance.md). The page's keys have a few
 * shapes (the filter's conditions, a bound or not, the sort, how many types are hidden): one
 * statement per shape, made on first use; a bounded set, as hidden types are among the
 * stream-setting types.
 */
export class ActivityStatements {
  private readonly pageKeyStatements = new Map<string, PreparedQuery<Record<string, unknown>, PageKey>>();
  private readonly nameStatements: Array<PreparedQuery<Record<string, unknown>, { uid: string; display_name: string }>> = [];
  readonly streamSettings: PreparedQuery<{ uid: string }, { type: string; enabled: number }>;
  readonly position: PreparedQuery<{ activityId: number }, { affecteduser: string; timestamp: number; activity_id: number }>;
  readonly firstKnown: Record<"asc" | "desc", PreparedQuery<{ uid: string }, { activity_id: number }>>;

  constructor(private readonly db: Db) {
    this.streamSettings = new PreparedQuery((slot) =>
      db.selectFrom("activity_stream_settings").select(["type", "enabled"]).where("uid", "=", slot("uid")),
    );
    this.position = new PreparedQuery((slot) =>
      db
        .selectFrom("activity")
        .select(["affecteduser", "timestamp", "activity_id"])
        .where("activity_id", "=", slot("activityId")),
    );
    const first = (sort: "asc" | "desc") =>
      new PreparedQuery<{ uid: string }, { activity_id: number }>((slot) =>
        db
          .selectFrom("activity")
          .select("activity_id")
          .where("affecteduser", "=", slot("uid"))
          .orderBy("timestamp", sort)
          .orderBy("activity_id", sort)
          .limit(1),
      );
    this.firstKnown = { asc: first("asc"), desc: first("desc") };
  }

  /** The ids of one page's rows, in order: the same conditions and order as ActivityStore.pageQuery. */
  async pageIds(query: StreamPageQuery): Promise<number[]> {
    const shape = pageShape(query);
    let statement = this.pageKeyStatements.get(shape);
    if (!statement) {
      statement = this.buildPageKeys(query);
      this.pageKeyStatements.set(shape, statement);
    }
    return statement.column(this.db, pageValues(query), "activity_id");
  }

  private buildPageKeys(shape: StreamPageQuery): PreparedQuery<Record<string, unknown>, PageKey> {
    return new PreparedQuery<Record<string, unknown>, PageKey>((slot) => pageRange(this.db, shape, slot).select("activity_id"));
  }

  /** Display names of these users (those that exist). */
  async displayNames(uids: readonly string[]): Promise<Array<{ uid: string; display_name: string }>> {
    if (uids.length > PREPARED_NAME_COUNTS) {
      return this.db
        .selectFrom("users")
        .select(["uid", "display_name"])
        .where("uid", "in", [...uids])
        .execute();
    }
    let statement = this.nameStatements[uids.length];
    if (!statement) {
      statement = new PreparedQuery((slot) =>
        this.db
          .selectFrom("users")
          .select(["uid", "display_name"])
          .where(
            "uid",
            "in",
            uids.map((_, i) => slot(`uid${i}`) as string),
          ),
      );
      this.nameStatements[uids.length] = statement;
    }
    const values: Record<string, unknown> = {};
    uids.forEach((uid, i) => {
      values[`uid${i}`] = uid;
    });
    return (await statement.execute(this.db, values)).rows;
  }
}
