import type { PostgresPool } from "kysely";
import type pg from "pg";
import { DatabaseUnavailableError, isDatabaseUnavailable, raisedByDatabase } from "./availability.js";

/** Bounds on waiting for PostgreSQL; docs/deployment.md describes the settings. */
export interface DatabaseTimeouts {
  /** Opening a connection, or waiting for a free one of the pool (ms). */
  connectMs: number;
  /** PostgreSQL `statement_timeout` (a statement, including its lock waits); SQLite `busy_timeout` (ms). */
  statementMs: number;
}

/**
 * Defaults. The statement timeout differs: on PostgreSQL it must leave room for the longest
 * legitimate statement (a background job's delete, a bulk insert on a busy machine took 8 s in the
 * test suite) and stay below a proxy's read timeout (nginx: 60 s); on SQLite a lock wait blocks the
 * whole process, so it stays at 5 s.
 */
export const DEFAULT_DATABASE_TIMEOUTS = { connectMs: 5000, statementMs: { postgres: 30_000, sqlite: 5000 } } as const;

/** pg.Pool options for the timeouts: the server enforces the statement timeout (SQLSTATE 57014). */
export function postgresTimeoutOptions(timeouts: DatabaseTimeouts): pg.PoolConfig {
  return {
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    // Notices a peer that vanished (a host that died, a dropped NAT entry) on an idle connection.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

/**
 * Makes the pool survive PostgreSQL going away, and bounds waiting for it:
 *
 * - The pool's `error` event (an idle connection terminated: a restart, a failover,
 *   `pg_terminate_backend`, `idle_session_timeout`, a network reset) and a checked-out connection's
 *   `error` event are handled: unhandled, either is an exception that ends the process. pg-pool
 *   drops such a connection; the next query opens a new one.
 * - A query on a connection that dies under it (no SQLSTATE, only "Connection terminated") and a
 *   failure to connect are wrapped in DatabaseUnavailableError, so they classify as an outage.
 * - A query the server has not answered `statementMs + connectMs` after it was sent (the
 *   statement timeout should have cancelled it by then: the server or the network is hung) has its
 *   connection closed, which fails the query and drops the connection from the pool.
 */
export class PostgresConnectionGuard {
  private readonly lost = new WeakSet<pg.PoolClient>();
  /** > 0 while migrations run (without a statement timeout, see withoutStatementTimeout). */
  private unbounded = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly timeouts: DatabaseTimeouts,
    onConnectionLost: (error: unknown) => void,
  ) {
    pool.on("error", (error) => onConnectionLost(error));
    pool.on("connect", (client) => this.watch(client));
  }

  /** The pool as Kysely's PostgresDialect takes it, with connection failures classified. */
  kyselyPool(): PostgresPool {
    return {
      connect: () => this.pool.connect().catch((error: unknown) => Promise.reject(connectFailure(error))),
      end: () => this.pool.end(),
    };
  }

  /** Runs `work` with no client-side deadline (migrations, which also lift the server's timeout). */
  async unboundedWhile<T>(work: () => Promise<T>): Promise<T> {
    this.unbounded++;
    try {
      return await work();
    } finally {
      this.unbounded--;
    }
  }

  private watch(client: pg.PoolClient): void {
    client.on("error", () => this.lost.add(client));
    client.on("end", () => this.lost.add(client));
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const guarded = (...args: unknown[]) => {
      const result = query(...args);
      // Callback-style and cursor queries are passed through; Kysely awaits a promise.
      if (!(result instanceof Promise)) return result;
      const deadline =
        this.unbounded > 0
          ? undefined
          : setTimeout(() => this.abandon(client), this.timeouts.statementMs + this.timeouts.connectMs);
      return result.then(
        (value) => {
          clearTimeout(deadline);
          return value;
        },
        (error: unknown) => {
          clearTimeout(deadline);
          raisedByDatabase(error);
          throw this.lost.has(client) && !isDatabaseUnavailable(error)
            ? new DatabaseUnavailableError("the database connection was lost", "connection_lost", { cause: error })
            : error;
        },
      );
    };
    (client as unknown as { query: typeof guarded }).query = guarded;
  }

  private abandon(client: pg.PoolClient): void {
    this.lost.add(client);
    const stream = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
    stream?.destroy();
  }
}

/** A failed connect: pg's own timeouts carry no code; a SQLSTATE (wrong password …) is kept as is. */
function connectFailure(error: unknown): unknown {
  raisedByDatabase(error);
  const code = (error as { code?: unknown } | null)?.code;
  const sqlState = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code);
  if (sqlState || isDatabaseUnavailable(error)) return error;
  return new DatabaseUnavailableError("could not connect to the database", "connect_failed", { cause: error });
}
