import { sql } from "kysely";
import type { Deployment } from "./deployment.js";
import type { Report } from "./report.js";

/**
 * The database's own consistency checks after the faults: SQLite `PRAGMA integrity_check` (every
 * page, index entry and constraint), or on PostgreSQL amcheck (contrib, shipped with Debian's
 * postgresql-15): `bt_index_check(index, heapallindexed => true)` on every B-tree index of the
 * schema (each index entry ordered, and every heap tuple present in its index) and
 * `verify_heapam` on every table.
 */
export async function checkDatabaseIntegrity(deployment: Deployment, report: Report): Promise<void> {
  const db = deployment.storage.db;
  if (deployment.kind === "sqlite") {
    const rows = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    const result = rows.rows.map((r) => r.integrity_check).join("; ");
    report.check("SQLite PRAGMA integrity_check = ok", result === "ok", result);
    const fk = await sql<Record<string, unknown>>`pragma foreign_key_check`.execute(db);
    report.check("SQLite PRAGMA foreign_key_check finds nothing", fk.rows.length === 0, `${fk.rows.length} rows`);
    return;
  }
  try {
    await sql`create extension if not exists amcheck`.execute(db);
  } catch (error) {
    report.note(`amcheck unavailable (${(error as Error).message}): PostgreSQL index checks not run`);
    return;
  }
  const indexes = await sql<{ name: string }>`
    select c.relname as name from pg_index i
      join pg_class c on c.oid = i.indexrelid
      join pg_am am on am.oid = c.relam
      join pg_namespace n on n.oid = c.relnamespace
    where am.amname = 'btree' and n.nspname = 'public'`.execute(db);
  const broken: string[] = [];
  for (const { name } of indexes.rows) {
    try {
      await sql`select bt_index_check(${name}::regclass, true)`.execute(db);
    } catch (error) {
      broken.push(`${name}: ${(error as Error).message}`);
    }
  }
  report.check(
    `PostgreSQL bt_index_check (heapallindexed) on ${indexes.rows.length} indexes`,
    broken.length === 0,
    broken.join("; "),
  );
  const tables = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname = 'public'`.execute(db);
  let corrupt = 0;
  for (const { name } of tables.rows) {
    const found = await sql<Record<string, unknown>>`select * from verify_heapam(${name}::regclass)`.execute(db);
    corrupt += found.rows.length;
  }
  report.check(`PostgreSQL verify_heapam on ${tables.rows.length} tables finds nothing`, corrupt === 0, `${corrupt} problems`);
}
