import type { CreateTableBuilder } from "kysely";
import type { Dialect } from "../driver/database.js";

/**
 * The one place where the dialects differ in DDL: an auto-increment integer primary key
 * (`integer … autoincrement` on SQLite, `bigserial` on PostgreSQL).
 */
export function autoIncrementId<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: Dialect,
  column = "id",
): CreateTableBuilder<T, string> {
  return dialect === "sqlite"
    ? table.addColumn(column, "integer", (c) => c.primaryKey().autoIncrement())
    : table.addColumn(column, "bigserial", (c) => c.primaryKey());
}
