import type { SortOrder } from "../../../activity/domain/cursor.js";
import type {
  ActivityPosition,
  ActivityRow,
  ActivityStore,
  NewActivity,
  StoredRow,
  StreamRead,
  StreamReadQuery,
  WriteTransaction,
} from "../../../activity/ports.js";
import type { Db, DbOrTx, Dialect } from "../../driver/database.js";
import { transaction } from "../../driver/prepared.js";
import { PostgresPageStatements } from "./activity-postgres-page.js";
import { ActivityRowCache } from "./activity-row-cache.js";
import { ActivityStatements, type StreamPageQuery } from "./activity-statements.js";
import { borrowed } from "./activity-write-transaction.js";

/** Rows per INSERT statement: 16 columns × 500 stays below SQLite's 32 766 bound variables. */
const INSERT_CHUNK = 500;

/**
 * The activity tables, one Kysely implementation for SQLite and PostgreSQL. Every stream read is
 * `affecteduser = ? AND <prefix of one index> AND (timestamp, activity_id) <|> (?, ?)
 * ORDER BY timestamp, activity_id LIMIT n`: a range scan of one index, whatever the depth. Pages
 * hand out their rows from the row cache (activity-row-cache.ts), as StoredRows.
 */
export class SqlActivityStore implements ActivityStore {
  private readonly rowCache = new ActivityRowCache();
  private readonly statements: ActivityStatements;
  /** PostgreSQL: a page's reads in one round trip (activity-postgres-page.ts). */
  private readonly postgresPage: PostgresPageStatements | undefined;

  /** Without `dialect` every read is a statement of its own, which is correct on both databases. */
  constructor(
    private readonly db: Db,
    dialect?: Dialect,
  ) {
    this.statements = new ActivityStatements(db);
    this.postgresPage = dialect === "postgres" ? new PostgresPageStatements(db) : undefined;
  }

  async insertAll(rows: readonly NewActivity[]): Promise<number[]> {
    return transaction(this.db, (trx) => this.insertRows(trx, rows));
  }

  async insertInto(into: WriteTransaction, rows: readonly NewActivity[]): Promise<number[]> {
    return this.insertRows(borrowed(into), rows);
  }

  /** Inside `trx` (bulk loads batch many calls into one transaction). */
  async insertRows(trx: DbOrTx, rows: readonly NewActivity[]): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const inserted = await trx
        .insertInto("activity")
        .values(rows.slice(i, i + INSERT_CHUNK))
        .returning("activity_id")
        .execute();
      ids.push(...inserted.map((r) => Number(r.activity_id)));
    }
    return ids;
  }

  async findPosition(activityId: number): Promise<ActivityPosition | undefined> {
    return this.statements.position.first(this.db, { activityId });
  }

  /** A page's conditions and order on the user's rows (one index range, see the class comment). */
  private pageRange(query: StreamPageQuery) {
    const { selection, bound } = query;
    let q = this.db.selectFrom("activity").where("affecteduser", "=", query.uid);
    if (selection.isSelf !== undefined) q = q.where("is_self", "=", selection.isSelf);
    if (selection.category !== undefined) q = q.where("category", "=", selection.category);
    if (selection.object !== undefined) {
      q = q.where("object_type", "=", selection.object.type).where("object_id", "=", selection.object.id);
    }
    if (bound) {
      q = q.where(({ eb, refTuple, tuple }) =>
        eb(refTuple("timestamp", "activity_id"), bound.comparison, tuple(bound.timestamp, bound.activityId)),
      );
    }
    if (query.hiddenTypes.length > 0) q = q.where("type", "not in", [...query.hiddenTypes]);
    return q.orderBy("timestamp", query.sort).orderBy("activity_id", query.sort).limit(query.fetch);
  }

  /**
   * The query behind a stream page, whole rows in one statement; exposed so tests and the bench can
   * EXPLAIN it.
   */
  pageQuery(query: StreamPageQuery) {
    return this.pageRange(query).selectAll();
  }

  /**
   * The same page's ids only: every column it reads is in the index it scans (SQLite answers
   * from the index alone unless hidden types need the row's `type`). Compiled once per shape in
   * activity-statements.ts; this form is for EXPLAIN.
   */
  pageKeysQuery(query: StreamPageQuery) {
    return this.pageRange(query).select("activity_id");
  }

  /**
   * One page of rows, each read from the database once per process (turning 16 columns into
   * JavaScript values is a fifth of a page's CPU, docs/performance.md). A stored activity never
   * changes: nothing updates the table, and ids are never reused (AUTOINCREMENT, bigserial). So the
   * page's ids are read on every call, which decides which rows it holds (a deleted row is never
   * served); when every row is cached (for this user) the page is answered from the cache,
   * otherwise it is read whole in one statement and its rows are kept. The ids alone are enough:
   * any other column of the key would be compared with a cached row that cannot change.
   */
  async page(query: StreamPageQuery): Promise<StoredRow[]> {
    return this.rowsFor(query, await this.statements.pageIds(query));
  }

  /**
   * A page, the user's stream settings (whose hidden types it skips) and the display names of the
   * users the caller expects it to name. Everything is read from the database on each call: on
   * SQLite as three statements, on PostgreSQL as one (one round trip; a second when the hidden
   * types expected were not the settings' ones).
   */
  async streamRead(query: StreamReadQuery): Promise<StreamRead> {
    if (!this.postgresPage) {
      const settings = await this.streamSettings(query.uid);
      const hiddenTypes = query.hiddenTypesOf(settings);
      const rows = await this.page({ ...query, hiddenTypes });
      return { settings, hiddenTypes, rows, names: await this.displayNames(query.names) };
    }
    const read = await this.postgresPage.read({ ...query, hiddenTypes: query.expectedHiddenTypes }, query.names);
    const settings = new Map(read.settings.map(([type, enabled]) => [type, enabled === 1]));
    const hiddenTypes = query.hiddenTypesOf(settings);
    const pageQuery = { ...query, hiddenTypes };
    const ids = sameTypes(hiddenTypes, query.expectedHiddenTypes) ? read.ids : await this.statements.pageIds(pageQuery);
    return { settings, hiddenTypes, rows: await this.rowsFor(pageQuery, ids), names: new Map(read.names) };
  }

  /** The page of `ids` (read by `query` just now): from the row cache when it holds every row. */
  private async rowsFor(query: StreamPageQuery, ids: readonly number[]): Promise<StoredRow[]> {
    const rows: StoredRow[] = [];
    for (const id of ids) {
      const cached = this.rowCache.get(id);
      if (cached === undefined || cached.affecteduser !== query.uid) return this.readWhole(query);
      rows.push(cached);
    }
    return rows;
  }

  private async readWhole(query: StreamPageQuery): Promise<StoredRow[]> {
    // Any row missing: the page is read whole in one statement (a read of the missing rows by id
    // made cold pages at 1M rows 3–9× slower than at 10k on SQLite), and its rows are kept.
    return this.rowCache.keep(await this.pageQuery(query).execute());
  }

  /**
   * docs/upstream/nextcloud-activity.md §3: the user's newest (desc) or oldest (asc) activity,
   * across every filter.
   */
  async firstKnown(uid: string, sort: SortOrder): Promise<number | undefined> {
    return (await this.statements.firstKnown[sort].first(this.db, { uid }))?.activity_id;
  }

  /** Legacy API v1 only (the v2 stream never uses OFFSET). */
  async newestWithOffset(uid: string, offset: number, count: number): Promise<ActivityRow[]> {
    return this.db
      .selectFrom("activity")
      .selectAll()
      .where("affecteduser", "=", uid)
      .orderBy("timestamp", "desc")
      .orderBy("activity_id", "desc")
      .limit(count)
      .offset(offset)
      .execute();
  }

  async deleteOlderThan(before: number): Promise<number> {
    const result = await this.db.deleteFrom("activity").where("timestamp", "<", before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async countForUser(uid: string): Promise<number> {
    const row = await this.db
      .selectFrom("activity")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("affecteduser", "=", uid)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async existingUsers(uids: readonly string[]): Promise<Set<string>> {
    if (uids.length === 0) return new Set();
    const found = new Set<string>();
    for (let i = 0; i < uids.length; i += INSERT_CHUNK) {
      const rows = await this.db
        .selectFrom("users")
        .select("uid")
        .where("uid", "in", uids.slice(i, i + INSERT_CHUNK))
        .execute();
      for (const row of rows) found.add(row.uid);
    }
    return found;
  }

  async displayNames(uids: readonly string[]): Promise<Map<string, string>> {
    if (uids.length === 0) return new Map();
    const rows = await this.statements.displayNames(uids);
    return new Map(rows.map((r) => [r.uid, r.display_name]));
  }

  async streamSettings(uid: string): Promise<Map<string, boolean>> {
    const rows = (await this.statements.streamSettings.execute(this.db, { uid })).rows;
    return new Map(rows.map((r) => [r.type, r.enabled === 1]));
  }

  async saveStreamSettings(uid: string, changes: ReadonlyMap<string, boolean>): Promise<void> {
    if (changes.size === 0) return;
    await transaction(this.db, async (trx) => {
      for (const [type, enabled] of changes) {
        await trx
          .insertInto("activity_stream_settings")
          .values({ uid, type, enabled: enabled ? 1 : 0 })
          .onConflict((oc) => oc.columns(["uid", "type"]).doUpdateSet({ enabled: enabled ? 1 : 0 }))
          .execute();
      }
    });
  }
}

function sameTypes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((type, i) => type === b[i]);
}
