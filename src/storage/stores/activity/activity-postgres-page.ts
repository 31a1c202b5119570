import { sql } from "kysely";
import type { Db } from "../../driver/database.js";
import { PreparedQuery } from "../../driver/prepared.js";
import { pageRange, pageShape, pageValues, type StreamPageQuery } from "./activity-statements.js";

/**
 * PostgreSQL only: an activity page's reads as one statement. A page needs the reader's stream
 * settings, the ids of its rows and the display names of the users they name; as three statements
 * they would be three round trips, each ≈ 50–100 µs of `pg` driver and Kysely CPU.
 * Here each is a scalar subquery aggregated to JSON (which the driver parses), in one row. SQLite
 * runs the same reads as separate statements (activity-store.ts): there a statement costs µs.
 *
 * The page's range must know the hidden types before the settings are read: it is built for the
 * types the caller expects to be hidden, and the caller checks them against the settings returned
 * (ActivityStore.streamRead reads the ids again when they differ). The names are those of the
 * users the caller expects the page to name; it reads any other it finds it needs.
 */
export interface PostgresPageRead {
  /** The reader's stored stream settings: [type, enabled 0/1]. */
  settings: Array<[string, number]>;
  /** The page's row ids, in the page's order. */
  ids: number[];
  /** [uid, display name] of the users asked for that exist. */
  names: Array<[string, string]>;
}

type PageStatement = PreparedQuery<Record<string, unknown>, PostgresPageRead>;

export class PostgresPageStatements {
  /** One statement per page shape (activity-statements.ts pageShape): a bounded set. */
  private readonly statements = new Map<string, PageStatement>();

  constructor(private readonly db: Db) {}

  async read(query: StreamPageQuery, names: readonly string[]): Promise<PostgresPageRead> {
    const shape = pageShape(query);
    let statement = this.statements.get(shape);
    if (!statement) {
      statement = this.build(query);
      this.statements.set(shape, statement);
    }
    const row = await statement.first(this.db, { ...pageValues(query), names });
    if (!row) throw new Error("the page statement returned no row");
    return row;
  }

  private build(shape: StreamPageQuery): PageStatement {
    // The aggregate restates the range's order: json_agg's input order is not otherwise defined.
    const order = sql.raw(shape.sort === "asc" ? "asc" : "desc");
    return new PreparedQuery<Record<string, unknown>, PostgresPageRead>((slot) =>
      this.db.selectNoFrom((eb) => [
        eb
          .selectFrom("activity_stream_settings")
          .select(sql<Array<[string, number]>>`coalesce(json_agg(json_build_array("type", "enabled")), '[]')`.as("v"))
          .where("uid", "=", slot("uid") as string)
          .as("settings"),
        eb
          .selectFrom(pageRange(this.db, shape, slot).select(["activity_id", "timestamp"]).as("k"))
          .select(
            sql<
              number[]
            >`coalesce(json_agg("k"."activity_id" order by "k"."timestamp" ${order}, "k"."activity_id" ${order}), '[]')`.as("v"),
          )
          .as("ids"),
        eb
          .selectFrom("users")
          .select(sql<Array<[string, string]>>`coalesce(json_agg(json_build_array("uid", "display_name")), '[]')`.as("v"))
          .where("uid", "=", sql<string>`any(cast(${slot("names")} as text[]))`)
          .as("names"),
      ]),
    );
  }
}
