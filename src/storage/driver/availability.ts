/**
 * Database outages: which storage errors mean "the database is unavailable right now"
 * (the request was fine; try again later → 503 + Retry-After), and the one place that logs an
 * outage: a warning when it starts and an info line when the database answers again, instead of a
 * stack trace per request. The only dialect-aware classification; callers ask
 * `isDatabaseUnavailable(error)` and never look at codes themselves.
 *
 * Only the database's own errors count: an error is classified by its code only when a database
 * call raised it (`raisedByDatabase`, applied at the one storage boundary, database-boundary.ts).
 * The same codes elsewhere say nothing about the database: ECONNRESET from a client's request
 * stream (a body abandoned or cut by the request timeout) is the client's fault.
 */

/**
 * A failure to reach the database that carries no code of its own (pg's connection timeouts, a
 * connection that ended under a query, a connection this process abandoned as hung): connect.ts
 * and postgres-pool.ts wrap those in this error where the context says what happened.
 */
export class DatabaseUnavailableError extends Error {
  constructor(
    message: string,
    /** A short, code-like reason for the log ("connect_timeout", "connection_lost", "read_timeout"). */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "DatabaseUnavailableError";
  }
}

/** Errors a database call raised (see raisedByDatabase); nothing else is classified by its code. */
const fromDatabase = new WeakSet<object>();

/**
 * Marks `error` as raised by a database call and returns it: the storage boundary
 * (database-boundary.ts, connect.ts's direct SQLite statements) calls it on every error a driver,
 * a connection or a statement throws, and on nothing else.
 */
export function raisedByDatabase(error: unknown): unknown {
  if (typeof error === "object" && error !== null) fromDatabase.add(error);
  return error;
}

/** Socket errors (Node) meaning the database server cannot be reached or dropped the connection. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL SQLSTATEs (Appendix A of its manual) that say nothing about the request: class 08
 * connection exception, class 53 insufficient resources (53100 disk_full, 53200 out_of_memory,
 * 53300 too_many_connections), 57P01 admin_shutdown (pg_terminate_backend, a restart), 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up, recovery), 57014 query_canceled (the
 * statement timeout), 55P03 lock_not_available (a lock timeout), 58030 io_error.
 */
const POSTGRES_CLASSES = new Set(["08", "53"]);
const POSTGRES_STATES = new Set(["57P01", "57P02", "57P03", "57014", "55P03", "58030"]);

/**
 * SQLite result codes (better-sqlite3 reports the extended code, e.g. SQLITE_IOERR_WRITE): a lock
 * another process holds past busy_timeout (BUSY, LOCKED), a full disk (FULL), a failing disk (IOERR).
 */
const SQLITE_PREFIXES = ["SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL", "SQLITE_IOERR"];

function codeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

function isUnavailableCode(code: string): boolean {
  if (NETWORK_CODES.has(code)) return true;
  if (code.startsWith("SQLITE_")) return SQLITE_PREFIXES.some((prefix) => code === prefix || code.startsWith(`${prefix}_`));
  if (/^[0-9A-Z]{5}$/.test(code)) return POSTGRES_CLASSES.has(code.slice(0, 2)) || POSTGRES_STATES.has(code);
  return false;
}

/**
 * True when `error` means the database is unavailable (not that the request or the code is wrong):
 * a DatabaseUnavailableError (only storage makes one), or an error a database call raised whose
 * code says so. The same code on any other error (a client's socket, a file) is not the database's.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (typeof error !== "object" || error === null || !fromDatabase.has(error)) return false;
  const code = codeOf(error);
  return code !== undefined && isUnavailableCode(code);
}

/** The code to log for an unavailable-database error (never its message, which may quote data). */
export function unavailableReason(error: unknown): string {
  if (error instanceof DatabaseUnavailableError) {
    const cause = codeOf(error.cause);
    return cause && isUnavailableCode(cause) ? `${error.reason} (${cause})` : error.reason;
  }
  return codeOf(error) ?? "unknown";
}

export interface AvailabilityLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

const silentLog: AvailabilityLog = { warn() {}, info() {} };

export interface AvailabilityOptions {
  /** Human-readable target without credentials (Storage.describe). */
  database: string;
  /** A cheap round trip to the database (`select 1`). */
  probe: () => Promise<unknown>;
  log?: AvailabilityLog | undefined;
  /** How often the probe runs while the database is unavailable. */
  probeIntervalMs?: number | undefined;
}

/**
 * One outage ("episode") at a time: the first unavailable failure logs a warning and starts probing
 * the database every `probeIntervalMs`; later failures are only counted. The episode ends, with an
 * info line, at the first probe that succeeds with no failure reported since the previous probe:
 * a database that answers `select 1` but still refuses writes (a full disk) keeps failing requests,
 * so the episode stays open while traffic keeps meeting the fault.
 */
export class DatabaseAvailability {
  private readonly log: AvailabilityLog;
  private readonly probeIntervalMs: number;
  private episode: { startedAt: number; failures: number; timer: NodeJS.Timeout } | undefined;
  private probing = false;
  private closed = false;
  /** Since this monitor started (metrics: keystream_db_outages_total, …_failures_total). */
  private outageCount = 0;
  private failureCount = 0;

  constructor(private readonly options: AvailabilityOptions) {
    this.log = options.log ?? silentLog;
    this.probeIntervalMs = options.probeIntervalMs ?? 1000;
  }

  /** True from an outage's first failure until the database answers again. */
  get unavailable(): boolean {
    return this.episode !== undefined;
  }

  /** Outages so far and failures met during them (each outage logged once: see failed()). */
  get counts(): { outages: number; failures: number } {
    return { outages: this.outageCount, failures: this.failureCount };
  }

  /** Reports an error for which isDatabaseUnavailable() is true. */
  failed(error: unknown, context = "request"): void {
    this.failureCount++;
    if (this.episode) {
      this.episode.failures++;
      return;
    }
    if (this.closed) return;
    const timer = setInterval(() => this.probe(), this.probeIntervalMs);
    // The probe never keeps the process alive by itself (a stopping server closes the storage).
    timer.unref();
    this.episode = { startedAt: Date.now(), failures: 1, timer };
    this.outageCount++;
    this.log.warn(
      { event: "database_unavailable", database: this.options.database, reason: unavailableReason(error), context },
      "database unavailable: answering 503 with Retry-After until it answers again",
    );
  }

  private probe(): void {
    const episode = this.episode;
    if (!episode || this.probing) return;
    this.probing = true;
    const failuresBefore = episode.failures;
    this.options.probe().then(
      () => {
        this.probing = false;
        if (this.episode !== episode || episode.failures !== failuresBefore) return;
        this.end(episode);
      },
      () => {
        this.probing = false;
      },
    );
  }

  private end(episode: NonNullable<DatabaseAvailability["episode"]>): void {
    clearInterval(episode.timer);
    this.episode = undefined;
    this.log.info(
      {
        event: "database_available",
        database: this.options.database,
        unavailableMs: Date.now() - episode.startedAt,
        failures: episode.failures,
      },
      "database available again",
    );
  }

  /** Stops probing (storage closing). */
  close(): void {
    this.closed = true;
    if (this.episode) clearInterval(this.episode.timer);
    this.episode = undefined;
  }
}
