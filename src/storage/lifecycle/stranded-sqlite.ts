import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { sql } from "kysely";
import { SQLITE_FILE, type Storage } from "../driver/connect.js";
import { isInstalled } from "./migrate.js";

/**
 * Thrown when PostgreSQL is configured but has no users while the SQLite file in the data directory
 * has some: starting would silently serve an empty instance beside the real one. Its message is one
 * line naming the command that moves the data, and how to start empty on purpose.
 */
export class StrandedSqliteError extends Error {}

/**
 * Refuses an empty PostgreSQL database (no Keystream schema yet, or one without users) while
 * `<dataDir>/keystream.sqlite` holds users. Renaming or removing that file is the way to start
 * empty on purpose (docs/deployment.md "Moving from SQLite to PostgreSQL"). Nothing is checked on
 * SQLite, nor when there is no such file.
 */
export async function refuseEmptyPostgresBesideSqlite(storage: Storage, dataDir: string, databaseUrl: string): Promise<void> {
  if (storage.dialect !== "postgres") return;
  const file = path.join(dataDir, SQLITE_FILE);
  const sqliteUsers = usersIn(file);
  if (sqliteUsers === 0) return;
  const installed = await isInstalled(storage);
  if (installed) {
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM users`.execute(storage.db);
    if (Number(rows[0]?.n) > 0) return;
  }
  throw new StrandedSqliteError(
    `the PostgreSQL database ${storage.describe} has no users, but ${file} holds ${sqliteUsers}: move them with ` +
      `${convertCommand(databaseUrl, installed)}, or rename that file to start with an empty database on purpose`,
  );
}

/** The users of a SQLite file; 0 when it has no users table or cannot be read (nothing to protect then). */
function usersIn(file: string): number {
  if (!fs.existsSync(file)) return 0;
  let database: SqliteDatabase.Database | undefined;
  try {
    database = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    const table = database.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'users'").pluck().get();
    if (Number(table) === 0) return 0;
    return Number(database.prepare("SELECT count(*) FROM users").pluck().get());
  } catch {
    return 0;
  } finally {
    database?.close();
  }
}

/** `./occ db:convert-type pgsql USER HOST DATABASE [--port N] [--clear-schema]` for this URL, without its password. */
function convertCommand(databaseUrl: string, installed: boolean): string {
  const url = new URL(databaseUrl);
  const user = decodeURIComponent(url.username) || "USER";
  const database = decodeURIComponent(url.pathname.replace(/^\//, "")) || user;
  const parts = ["./occ db:convert-type pgsql", user, url.hostname || "localhost", database];
  if (url.port) parts.push(`--port ${url.port}`);
  // A node that started on it already made Keystream's (empty) tables there.
  if (installed) parts.push("--clear-schema");
  return parts.join(" ");
}
