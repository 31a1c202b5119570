import type { Compilable, CompiledQuery, QueryResult } from "kysely";
import type { Db, DbOrTx } from "./database.js";

/**
 * SQL text → server-side statement name, for every PreparedQuery built (bounded: one entry per
 * distinct hot statement). PostgreSQL connections keep these statements prepared (connect.ts), so
 * the server parses and plans each once per connection instead of on every execution.
 */
const serverStatementNames = new Map<string, string>();

/** The name to prepare this SQL under on a PostgreSQL connection, when it is a PreparedQuery's. */
export function serverStatementName(sql: string): string | undefined {
  return serverStatementNames.get(sql);
}

/**
 * Runs a compiled statement at once, without Kysely's executor, when the storage can do so safely;
 * returns undefined otherwise (then the statement goes through Kysely). connect.ts registers one for
 * the embedded SQLite database: Kysely's connection handling (mutex, promises) cost ≈ 2 µs a
 * statement, as much as the statement itself (docs/performance.md).
 */
export type DirectExecutor = (
  sql: string,
  parameters: readonly unknown[],
  /** A single-column read: `rows` holds the column's values, not row objects (PreparedQuery.column). */
  pluck?: boolean,
) => QueryResult<unknown> | undefined;

const directExecutors = new WeakMap<object, DirectExecutor>();

/** Lets PreparedQuery run statements on `db` (not on its transactions) through `executor`. */
export function executeDirectlyOn(db: object, executor: DirectExecutor): void {
  directExecutors.set(db, executor);
}

/** Runs `work` inside one transaction on `db`'s storage; see transaction(). */
export type TransactionRunner = <T>(work: (trx: DbOrTx) => Promise<T>) => Promise<T>;

const transactionRunners = new WeakMap<object, TransactionRunner>();

/** Lets transaction() run `db`'s transactions through `runner` instead of Kysely's. */
export function runTransactionsWith(db: object, runner: TransactionRunner): void {
  transactionRunners.set(db, runner);
}

/**
 * Runs `work` in one transaction: committed when it resolves, rolled back when it rejects. On the
 * embedded SQLite database connect.ts holds Kysely's connection and runs BEGIN, the PreparedQuery
 * statements and COMMIT directly on the handle (the token endpoint's writes, docs/performance.md);
 * elsewhere it is Kysely's `db.transaction()`.
 */
export function transaction<T>(db: Db, work: (trx: DbOrTx) => Promise<T>): Promise<T> {
  const runner = transactionRunners.get(db);
  return runner ? runner(work) : db.transaction().execute(work);
}

/** Where a parameter goes in a query built once; replaced by the call's value at each execution. */
class Slot {
  constructor(readonly name: string) {}
}

/** Hands out typed placeholders: `slot("codeHash")` stands for `params.codeHash` in the built query. */
export type SlotFactory<P> = <K extends keyof P & string>(name: K) => P[K];

/**
 * A query built and compiled by Kysely once, then executed many times with new parameter values.
 *
 * Why (profiled, docs/performance.md): building and compiling a query (operation-node trees, `freeze`,
 * `visitNode`) cost 10–14 µs per statement, four times what executing it costs on SQLite; a code
 * exchange runs nine statements. The SQL still comes from Kysely's compiler for the storage's
 * dialect, so it is the same text (and the same cached prepared statement) as the built query's.
 *
 * The parameters are the values the query was built with, except that each `slot(name)` placeholder
 * is replaced by `params[name]`; a query may run on the database or inside a transaction.
 * Use it only for statements whose shape never changes (no `in` lists of varying length, no
 * optional clauses): the shape is fixed at the first build. Name the selected columns (no
 * `selectAll`): on PostgreSQL the statement stays prepared, and a column added by a later migration
 * must not change what it returns.
 */
export class PreparedQuery<P, R> {
  private readonly compiled: CompiledQuery<R>;
  /** For each compiled parameter: the slot's name, or undefined for a value fixed at build time. */
  private readonly slotNames: Array<string | undefined>;

  constructor(build: (slot: SlotFactory<P>) => Compilable<R>) {
    const slot = ((name: string) => new Slot(name)) as SlotFactory<P>;
    this.compiled = build(slot).compile();
    if (!serverStatementNames.has(this.compiled.sql)) {
      serverStatementNames.set(this.compiled.sql, `ks_prepared_${serverStatementNames.size + 1}`);
    }
    this.slotNames = this.compiled.parameters.map((value) => (value instanceof Slot ? value.name : undefined));
  }

  /** All rows (or, for a write without RETURNING, the affected-row count in `numAffectedRows`). */
  async execute(db: DbOrTx, params: P): Promise<QueryResult<R>> {
    const parameters = this.bind(params);
    const direct = directExecutors.get(db)?.(this.compiled.sql, parameters);
    if (direct) return direct as QueryResult<R>;
    return db.executeQuery<R>({ ...this.compiled, parameters });
  }

  /**
   * The values of `column`, row by row, for a statement that selects that one column. On SQLite
   * the handle answers bare values: no object per row (an activity page's 51 keys as objects cost
   * ≈ 0.4 µs a row, three times what SQLite spends reading them).
   */
  async column<K extends keyof R & string>(db: DbOrTx, params: P, column: K): Promise<Array<R[K]>> {
    const parameters = this.bind(params);
    const direct = directExecutors.get(db)?.(this.compiled.sql, parameters, true);
    if (direct) return direct.rows as Array<R[K]>;
    return (await db.executeQuery<R>({ ...this.compiled, parameters })).rows.map((row) => row[column]);
  }

  private bind(params: P): unknown[] {
    const fixed = this.compiled.parameters;
    const values = params as Record<string, unknown>;
    return this.slotNames.map((name, i) => (name === undefined ? fixed[i] : values[name]));
  }

  async first(db: DbOrTx, params: P): Promise<R | undefined> {
    return (await this.execute(db, params)).rows[0];
  }

  /** Rows changed by an UPDATE or DELETE without RETURNING. */
  async affected(db: DbOrTx, params: P): Promise<number> {
    return Number((await this.execute(db, params)).numAffectedRows ?? 0n);
  }
}
