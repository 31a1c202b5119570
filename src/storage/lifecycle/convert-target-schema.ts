import { type Kysely, sql } from "kysely";

/**
 * The PostgreSQL side of a conversion (convert-to-postgres.ts), read from the catalogue of the
 * connection's current schema: what is there, the tables' columns and foreign keys, the sequences
 * behind serial and identity columns.
 */
export interface TargetSchema {
  /** Every table, view and sequence of the schema, as `kind name` (empty: an empty database). */
  relations: string[];
  /** Table → column → data type (information_schema `data_type`). */
  columns: Map<string, Map<string, string>>;
  /** Child table → the tables its foreign keys name. */
  foreignKeys: Map<string, Set<string>>;
}

const KINDS: Record<string, string> = {
  r: "table",
  p: "table",
  v: "view",
  m: "materialized view",
  S: "sequence",
  f: "foreign table",
};

export async function readTargetSchema(db: Kysely<any>): Promise<TargetSchema> {
  const schemaName = await sql<{ name: string | null }>`SELECT current_schema() AS name`.execute(db);
  if (!schemaName.rows[0]?.name) throw new Error("the PostgreSQL connection has no current schema (search_path)");
  const relations = await sql<{ relname: string; relkind: string }>`
    SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') ORDER BY c.relname`.execute(db);
  const columns = await sql<{ table_name: string; column_name: string; data_type: string }>`
    SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
    ORDER BY c.table_name, c.ordinal_position`.execute(db);
  const keys = await sql<{ child: string; parent: string }>`
    SELECT child.relname AS child, parent.relname AS parent FROM pg_constraint k
    JOIN pg_class child ON child.oid = k.conrelid JOIN pg_class parent ON parent.oid = k.confrelid
    JOIN pg_namespace n ON n.oid = k.connamespace
    WHERE k.contype = 'f' AND n.nspname = current_schema()`.execute(db);
  const byTable = new Map<string, Map<string, string>>();
  for (const row of columns.rows) {
    const table = byTable.get(row.table_name) ?? new Map<string, string>();
    table.set(row.column_name, row.data_type);
    byTable.set(row.table_name, table);
  }
  const foreignKeys = new Map<string, Set<string>>();
  for (const { child, parent } of keys.rows) foreignKeys.set(child, (foreignKeys.get(child) ?? new Set()).add(parent));
  return {
    relations: relations.rows.map((r) => `${KINDS[r.relkind] ?? r.relkind} ${r.relname}`),
    columns: byTable,
    foreignKeys,
  };
}

/**
 * ownCloud's `--clear-schema`: drops every table, view and sequence of the schema. Runs inside the
 * conversion's transaction, so a failed conversion puts them back.
 */
export async function clearSchema(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ relname: string; relkind: string }>`
    SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')`.execute(db);
  const statement: Record<string, string> = {
    r: "TABLE",
    p: "TABLE",
    v: "VIEW",
    m: "MATERIALIZED VIEW",
    S: "SEQUENCE",
    f: "FOREIGN TABLE",
  };
  // Views first, then tables, then what is left; CASCADE takes dependants (a serial's sequence goes
  // with its table), IF EXISTS what an earlier CASCADE already took.
  const rank = (kind: string) => (kind === "v" || kind === "m" ? 0 : kind === "S" ? 2 : 1);
  for (const { relname, relkind } of rows.sort((a, b) => rank(a.relkind) - rank(b.relkind))) {
    await sql`DROP ${sql.raw(statement[relkind] ?? "TABLE")} IF EXISTS ${sql.table(relname)} CASCADE`.execute(db);
  }
}

/**
 * The tables in an order where each comes after every table its foreign keys name (a key of a
 * table to itself does not order anything). A cycle cannot be inserted table by table: refused.
 */
export function orderParentsFirst(tables: string[], foreignKeys: Map<string, Set<string>>): string[] {
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (placed.has(table)) return;
    if (visiting.has(table))
      throw new Error(`the foreign keys of ${table} form a cycle: its rows cannot be copied table by table`);
    visiting.add(table);
    for (const parent of [...(foreignKeys.get(table) ?? [])].sort()) if (parent !== table) visit(parent);
    visiting.delete(table);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table);
  return ordered.filter((table) => tables.includes(table));
}

/**
 * After rows were inserted with their ids, each sequence behind a serial or identity column is set
 * so that the next id is past every copied one and past SQLite's AUTOINCREMENT high-water mark (an
 * id a deleted row once had is not given again, as SQLite would not).
 */
export async function resetSequences(db: Kysely<any>, schema: TargetSchema, highWater: Map<string, number>): Promise<void> {
  for (const [table, columns] of schema.columns) {
    for (const column of columns.keys()) {
      const found = await sql<{ sequence: string | null }>`
        SELECT pg_get_serial_sequence(${sql.lit(`"${table}"`)}, ${column}) AS sequence`.execute(db);
      const sequence = found.rows[0]?.sequence;
      if (!sequence) continue;
      const max = await sql<{ n: number | null }>`SELECT max(${sql.ref(column)}) AS n FROM ${sql.table(table)}`.execute(db);
      const last = Math.max(Number(max.rows[0]?.n ?? 0), highWater.get(table) ?? 0);
      // setval(…, n, true): the next value is n + 1; (…, 1, false): the next value is 1.
      if (last >= 1) await sql`SELECT setval(${sequence}, ${last}, true)`.execute(db);
      else await sql`SELECT setval(${sequence}, 1, false)`.execute(db);
    }
  }
}
