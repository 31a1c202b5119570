import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, type Kysely, type RawBuilder, sql } from "kysely";
import type { Storage } from "../driver/connect.js";
import { clearSchema, orderParentsFirst, readTargetSchema, resetSequences, type TargetSchema } from "./convert-target-schema.js";
import { migrateWithinTransaction } from "./migrate.js";

/**
 * Copies a SQLite instance into an empty PostgreSQL database, as ownCloud's `occ db:convert-type`
 * does (owncloud/core `core/Command/Db/ConvertType.php`): the target is migrated to the same
 * migrations, then every table the source's schema holds is copied, in one transaction on the
 * target, so that a failure anywhere leaves the target as it was.
 */

/** A refusal or a failed check of the conversion: one line, nothing kept on the target. */
export class ConversionError extends Error {}

export interface ConversionOptions {
  /** Rows read from SQLite and written to PostgreSQL at a time (ownCloud's `--chunk-size`). */
  chunkSize: number;
  /** Drop every table, view and sequence of the target's schema first (ownCloud's `--clear-schema`). */
  clearSchema: boolean;
  /** Told each step (`users: 1000/2500 rows`), for stderr. */
  progress(line: string): void;
  /**
   * Run after everything is copied and verified, just before the commit (switching the configuration
   * over); a failure of it rolls the copy back. `undo` runs if the commit itself then fails.
   */
  switchOver?: { apply(): void; undo(): void };
}

export interface ConversionReport {
  tables: Array<{ name: string; rows: number }>;
  migrations: string[];
}

/** Kysely's own bookkeeping: the target's migrator writes its own rows there. */
const MIGRATOR_TABLES = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);

/** PostgreSQL takes at most 65535 parameters a statement; a chunk's insert is split below that. */
const MAX_PARAMETERS = 65_000;

interface SourceTable {
  name: string;
  columns: string[];
  rows: number;
}

export async function convertToPostgres(source: Storage, target: Storage, options: ConversionOptions): Promise<ConversionReport> {
  if (source.dialect !== "sqlite" || target.dialect !== "postgres") {
    throw new ConversionError("a conversion copies a SQLite database into a PostgreSQL one");
  }
  // One read transaction on the source: under WAL every read sees the same snapshot, even if a
  // writer commits meanwhile (sqlite.org/isolation.html).
  return source.db.connection().execute(async (from) => {
    await sql`BEGIN`.execute(from);
    try {
      const report = await target.withoutStatementTimeout((to) => copyInOneTransaction(from, to, options));
      await sql`COMMIT`.execute(from);
      return report;
    } catch (error) {
      await sql`ROLLBACK`.execute(from).catch(() => undefined);
      throw error;
    }
  });
}

async function copyInOneTransaction(from: Kysely<any>, to: Kysely<any>, options: ConversionOptions): Promise<ConversionReport> {
  const tables = await readSourceTables(from);
  const sourceMigrations = await migrationNames(from);
  await sql`BEGIN`.execute(to);
  let committing = false;
  try {
    const present = await readTargetSchema(to);
    if (present.relations.length > 0) {
      if (!options.clearSchema) {
        throw new ConversionError(
          `the target database is not empty (${present.relations.length} tables, views or sequences: ` +
            `${present.relations.slice(0, 5).join(", ")}${present.relations.length > 5 ? ", …" : ""}); ` +
            "give an empty database, or --clear-schema to drop them",
        );
      }
      options.progress(`dropping ${present.relations.length} tables, views and sequences of the target`);
      await clearSchema(to);
    }
    const { applied } = await migrateWithinTransaction(to, "postgres");
    options.progress(`target migrated: ${applied.length} migrations`);
    const targetMigrations = await migrationNames(to);
    if (targetMigrations.join() !== sourceMigrations.join()) {
      throw new ConversionError(
        `the source has migrations ${sourceMigrations.join(", ")}, the target ${targetMigrations.join(", ")}: ` +
          "both must be at the same version (run ./occ migrate with this release first)",
      );
    }
    const schema = await readTargetSchema(to);
    const order = matchTables(tables, schema);
    // Rows a migration wrote (seeds) give way to the source's rows: the target holds what the
    // source holds, nothing else. Children first, so no foreign key is left dangling.
    for (const table of [...order].reverse()) await sql`DELETE FROM ${sql.table(table.name)}`.execute(to);
    for (const table of order) await copyTable(from, to, table, schema, options);
    await resetSequences(to, schema, await sqliteSequences(from));
    await verifyCounts(to, order);
    options.progress(`verified: ${order.length} tables, ${order.reduce((n, t) => n + t.rows, 0)} rows`);
    options.switchOver?.apply();
    committing = true;
    try {
      await sql`COMMIT`.execute(to);
    } catch (error) {
      options.switchOver?.undo();
      throw error;
    }
    return { tables: order.map(({ name, rows }) => ({ name, rows })), migrations: targetMigrations };
  } catch (error) {
    if (!committing) await sql`ROLLBACK`.execute(to).catch(() => undefined);
    throw error;
  }
}

/** Every table of the SQLite schema but SQLite's own and the migrator's, with its columns and rows. */
async function readSourceTables(from: Kysely<any>): Promise<SourceTable[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`.execute(from);
  const tables: SourceTable[] = [];
  for (const { name } of rows) {
    if (MIGRATOR_TABLES.has(name)) continue;
    const columns = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${name}) ORDER BY cid`.execute(from);
    const count = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(name)}`.execute(from);
    tables.push({ name, columns: columns.rows.map((c) => c.name), rows: Number(count.rows[0]?.n ?? 0) });
  }
  return tables;
}

async function migrationNames(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM ${sql.table(DEFAULT_MIGRATION_TABLE)} ORDER BY name`.execute(db);
  return rows.map((row) => row.name);
}

/** SQLite's AUTOINCREMENT high-water marks: ids once used, even by rows since deleted. */
async function sqliteSequences(from: Kysely<any>): Promise<Map<string, number>> {
  const exists = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_sequence'`.execute(from);
  if (Number(exists.rows[0]?.n) === 0) return new Map();
  const { rows } = await sql<{ name: string; seq: number }>`SELECT name, seq FROM sqlite_sequence`.execute(from);
  return new Map(rows.map((row) => [row.name, Number(row.seq)]));
}

/**
 * The source's tables in the order their rows can be inserted (parents before the tables whose
 * foreign keys name them), after checking that both sides have the same tables and columns: the
 * same migrations made both, so a difference is a defect to stop on, never something to skip.
 */
function matchTables(tables: SourceTable[], schema: TargetSchema): SourceTable[] {
  const targetNames = [...schema.columns.keys()].filter((name) => !MIGRATOR_TABLES.has(name));
  const missing = tables.filter((t) => !schema.columns.has(t.name)).map((t) => t.name);
  const extra = targetNames.filter((name) => !tables.some((t) => t.name === name));
  if (missing.length > 0 || extra.length > 0) {
    throw new ConversionError(
      `the schemas differ after migrating: only in SQLite: ${missing.join(", ") || "none"}; only in PostgreSQL: ${extra.join(", ") || "none"}`,
    );
  }
  for (const table of tables) {
    const columns = schema.columns.get(table.name) ?? new Map();
    const differ = table.columns.length !== columns.size || table.columns.some((c) => !columns.has(c));
    if (differ) {
      throw new ConversionError(
        `table ${table.name} has the columns ${table.columns.join(", ")} in SQLite but ${[...columns.keys()].join(", ")} in PostgreSQL`,
      );
    }
  }
  const byName = new Map(tables.map((t) => [t.name, t]));
  return orderParentsFirst(
    tables.map((t) => t.name),
    schema.foreignKeys,
  ).map((name) => byName.get(name) as SourceTable);
}

/** Reads a table in chunks in rowid order and inserts each chunk with its ids as they are. */
async function copyTable(
  from: Kysely<any>,
  to: Kysely<any>,
  table: SourceTable,
  schema: TargetSchema,
  options: ConversionOptions,
): Promise<void> {
  const types = schema.columns.get(table.name) as Map<string, string>;
  const perInsert = Math.max(1, Math.floor(MAX_PARAMETERS / table.columns.length));
  let copied = 0;
  let lastRowid = Number.MIN_SAFE_INTEGER;
  options.progress(`${table.name}: 0/${table.rows} rows`);
  for (;;) {
    const { rows } = await sql<Record<string, unknown>>`
      SELECT rowid AS ${sql.id(ROWID)}, * FROM ${sql.table(table.name)}
      WHERE rowid > ${lastRowid} ORDER BY rowid LIMIT ${options.chunkSize}`.execute(from);
    if (rows.length === 0) break;
    lastRowid = Number(rows[rows.length - 1]?.[ROWID]);
    for (let start = 0; start < rows.length; start += perInsert) {
      await insertRows(to, table, types, rows.slice(start, start + perInsert));
    }
    copied += rows.length;
    options.progress(`${table.name}: ${copied}/${table.rows} rows`);
    if (rows.length < options.chunkSize) break;
  }
}

/** The source's rowid under a name no table has (the keyset of the chunked reads). */
const ROWID = "__keystream_rowid";

function insertRows(
  to: Kysely<any>,
  table: SourceTable,
  types: Map<string, string>,
  rows: Array<Record<string, unknown>>,
): Promise<unknown> {
  const columns = sql.join(table.columns.map((column) => sql.ref(column)));
  const values = rows.map(
    (row) => sql`(${sql.join(table.columns.map((column) => targetValue(row[column], types.get(column))))})`,
  );
  // OVERRIDING SYSTEM VALUE: the ids are copied as they are, identity columns included; the
  // sequences are set past them afterwards (resetSequences).
  return sql`INSERT INTO ${sql.table(table.name)} (${columns}) OVERRIDING SYSTEM VALUE VALUES ${sql.join(values)}`.execute(to);
}

/** SQLite's value as the PostgreSQL column takes it: SQLite has no boolean type, it stores 0 and 1. */
function targetValue(value: unknown, type: string | undefined): unknown | RawBuilder<unknown> {
  if (type === "boolean" && typeof value === "number") return value !== 0;
  return value;
}

async function verifyCounts(to: Kysely<any>, tables: SourceTable[]): Promise<void> {
  for (const table of tables) {
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table.name)}`.execute(to);
    const copied = Number(rows[0]?.n ?? 0);
    if (copied !== table.rows) {
      throw new ConversionError(`table ${table.name}: ${table.rows} rows in SQLite but ${copied} in PostgreSQL after copying`);
    }
  }
}
