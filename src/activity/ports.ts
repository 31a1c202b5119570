/**
 * The storage the activity stream needs, stated as ports (ory/fosite `handler/oauth2/storage.go`
 * is the model: one interface per concern, each method's contract in its comment). Only
 * `src/storage/` implements them; the activity services take them in their constructors.
 */
import type { KeysetBound, SortOrder } from "./domain/cursor.js";
import type { StreamSelection } from "./domain/filters.js";

/**
 * One stored activity: a row of table `activity`, one per activity and affected user
 * (docs/upstream/nextcloud-activity.md §7). Strings that upstream leaves nullable are `''`.
 */
export interface ActivityRow {
  activity_id: number;
  /** Epoch seconds. */
  timestamp: number;
  app: string;
  type: string;
  /** Author uid; `''` for public-link or remote actions. */
  user: string;
  /** The user whose stream holds the row. */
  affecteduser: string;
  /** 1 when `user = affecteduser`: the `self`/`by` filters are an equality prefix of an index. */
  is_self: number;
  /**
   * Id of the type filter the row belongs to (`files`, `files_sharing`, `security`) or `''`
   * (domain/filters.ts).
   */
  category: string;
  subject: string;
  /** JSON array of parameters, `[{"type","value"(,"id")}]`. */
  subjectparams: string;
  message: string;
  messageparams: string;
  link: string;
  object_type: string;
  object_id: number;
  object_name: string;
}

/**
 * A validated event's row, ready to insert (domain/event.ts): every column but the id the database
 * assigns.
 */
export type NewActivity = Omit<ActivityRow, "activity_id">;

declare const storedRow: unique symbol;

/**
 * A stored row as an ActivityStore's row cache hands it out; only that cache makes one (a plain
 * ActivityRow is not a StoredRow). The page's caches (activity/page-cache.ts) rely on what the
 * store guarantees of it:
 *
 * - the store hands out the same object for a row while it holds the row cached, so an unchanged
 *   page is the same objects in the same order, and a cache keyed on them hits;
 * - nobody changes the object, and a stored activity never changes (nothing updates the table, ids
 *   are never reused), so two pages holding the same object hold the same row as stored.
 *
 * Together: reuse decided by `===` on StoredRows is sound. A row read again (evicted, or read
 * whole because another row of its page was missing) is a new object: a miss, never a wrong hit.
 */
export type StoredRow = Readonly<ActivityRow> & { readonly [storedRow]: true };

declare const writeTransaction: unique symbol;

/**
 * A write transaction one store opened (IdempotencyStore.claimAndWrite, FileLogStore.commit) and
 * lends to a write that must commit or roll back with it (ActivityStore.insertInto). Opaque: only
 * storage opens one or looks inside; valid only while the callback it was lent to runs.
 */
export type WriteTransaction = { readonly [writeTransaction]: true };

/** A page's range: the user's rows of a filter, from a bound, in an order, at most `fetch`. */
export interface StreamPageRange {
  uid: string;
  selection: StreamSelection;
  /** Rows past this position only; undefined: from the start of the stream. */
  bound: KeysetBound | undefined;
  sort: SortOrder;
  /** limit + 1: the extra row only tells whether there is a next page. */
  fetch: number;
}

/** A page with what it needs besides its rows: ActivityStore.streamRead. */
export interface StreamReadQuery extends StreamPageRange {
  /** The stream-settings rule (activity/domain): the types to skip, given the user's stored choices. */
  hiddenTypesOf(stored: ReadonlyMap<string, boolean>): readonly string[];
  /**
   * The types expected to be hidden (those of the user's previous page): a store may read the page
   * for these together with the settings, and must read it again when the settings say otherwise.
   * Never decides what is served, only whether a second read is needed.
   */
  expectedHiddenTypes: readonly string[];
  /** Users whose display names are read with the page (those the previous page named). */
  names: readonly string[];
}

export interface StreamRead {
  /** The user's stored stream settings (type → shown). */
  settings: Map<string, boolean>;
  /** The hidden types the page was read with: hiddenTypesOf(settings). */
  hiddenTypes: readonly string[];
  /** The page, as the row cache hands its rows out (StoredRow). */
  rows: StoredRow[];
  /** Display names of the users asked for (query.names) that exist. */
  names: Map<string, string>;
}

/** A stored activity's place in its user's stream (the `since` parameter resolves to it). */
export interface ActivityPosition {
  affecteduser: string;
  timestamp: number;
  activity_id: number;
}

/**
 * The activity stream: tables `activity` and `activity_stream_settings`, and the display names of
 * `users`. Stored rows are never updated; they are only inserted and deleted (retention, a user's
 * deletion).
 */
export interface ActivityStore {
  /** Inserts every row or none, in one transaction of its own; returns their ids in input order. */
  insertAll(rows: readonly NewActivity[]): Promise<number[]>;
  /**
   * Inserts the rows inside `transaction` (they commit or roll back with it); returns their ids in
   * input order.
   */
  insertInto(transaction: WriteTransaction, rows: readonly NewActivity[]): Promise<number[]>;
  /** Of these uids, those that are users now (a set, possibly empty). */
  existingUsers(uids: readonly string[]): Promise<Set<string>>;
  /** The stored activity's position, whoever's stream holds it; undefined when there is no such id. */
  findPosition(activityId: number): Promise<ActivityPosition | undefined>;
  /**
   * A page of the user's stream, read now from the database: its rows (of `query`'s range, less the
   * types hiddenTypesOf(settings) hides, in the range's order), the user's stored settings, and the
   * display names of `query.names`. A deleted row is never in it; a cached row is handed out as the
   * same object (StoredRow). The settings, rows and names are each read afresh; the expectation
   * (`expectedHiddenTypes`, `names`) only decides how many statements that takes.
   */
  streamRead(query: StreamReadQuery): Promise<StreamRead>;
  /** The user's newest (desc) or oldest (asc) activity id across every filter; undefined when none. */
  firstKnown(uid: string, sort: SortOrder): Promise<number | undefined>;
  /** Display names of these users, by uid: those that exist (absent: no such user). */
  displayNames(uids: readonly string[]): Promise<Map<string, string>>;
  /** The user's stored stream settings (type → shown); a type never chosen is absent. */
  streamSettings(uid: string): Promise<Map<string, boolean>>;
  /** Stores each choice (insert or replace), all in one transaction; nothing for no changes. */
  saveStreamSettings(uid: string, changes: ReadonlyMap<string, boolean>): Promise<void>;
  /**
   * Legacy API v1: the user's newest rows from `offset` (at most `count`), newest first. Read whole
   * each time, not through the row cache: plain rows, not StoredRows.
   */
  newestWithOffset(uid: string, offset: number, count: number): Promise<ActivityRow[]>;
  /** Retention: deletes every row older than `before` (epoch seconds); returns how many. */
  deleteOlderThan(before: number): Promise<number>;
  /** How many rows the user's stream holds. */
  countForUser(uid: string): Promise<number>;
}

/** A key's claim: who, which key, the request's fingerprint, and when (epoch seconds). */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  /** Set for user scopes, so deleting the user deletes their keys. */
  uid: string | null;
  fingerprint: string;
  now: number;
  /** Rows created at or before this instant are expired: forgotten, and replaced by a new claim. */
  expiredAt: number;
}

/** The first request made with a key: its fingerprint and the ids it wrote. */
export interface RememberedAnswer {
  fingerprint: string;
  ids: number[];
}

export type ClaimOutcome<T> = { kind: "first"; value: T } | { kind: "seen"; answer: RememberedAnswer };

/**
 * Idempotency keys of publishes (draft-ietf-httpapi-idempotency-key-header): table
 * `idempotency_keys`. A key and its first answer are written in the transaction that writes the
 * events, so a crash leaves both or neither.
 */
export interface IdempotencyStore {
  /** The answer remembered for (scope, key) when created after `expiredAt`; undefined otherwise. */
  find(scope: string, key: string, expiredAt: number): Promise<RememberedAnswer | undefined>;
  /**
   * Atomically: forgets an expired row of the key, claims the key, runs `write` inside the same
   * transaction and records its ids as the key's answer; `{ kind: "first", value }`. When the key
   * is taken and unexpired (a concurrent request with it committed first) nothing is written and
   * the remembered answer is returned (`{ kind: "seen" }`). Concurrent claims of one key serialise:
   * exactly one writes. An error of `write` rolls everything back, key included, and is rethrown.
   * Callers look the key up with find() first.
   */
  claimAndWrite(
    claim: IdempotencyClaim,
    write: (transaction: WriteTransaction) => Promise<number[]>,
  ): Promise<ClaimOutcome<number[]>>;
  /** The purge job: deletes keys created at or before `expiredAt`; returns how many. */
  deleteExpired(expiredAt: number): Promise<number>;
  /** How many keys are stored, expired or not. */
  count(): Promise<number>;
}

/** A stretch of one log read by a node: from the cursor it found to just past its last line. */
export interface FileLogStretch {
  logId: string;
  from: number;
  to: number;
  now: number;
}

/** One request read in the stretch that should become activities, with what to write for it. */
export interface FileLogClaim<R> {
  requestId: string;
  requestedAt: number;
  rows: R;
}

export type FileLogCommit = { kind: "committed"; published: number } | { kind: "moved" };

/**
 * How far each proxy access log has been read, and which of its requests became activities:
 * tables `file_log_cursors` and `file_log_requests` (docs/deployment.md "File activities from the
 * proxy log"). Two nodes on one log, or on copies of it, never publish a request twice, and a crash
 * neither loses nor repeats a line.
 */
export interface FileLogStore {
  /** Where reading `logId` resumes; 0 for a log never read. */
  position(logId: string): Promise<number>;
  /**
   * One transaction: moves the cursor from `stretch.from` to `stretch.to` (compare-and-set), claims
   * each request id (at most once, ever) and runs `write` for the claims made here only; returns
   * `{ kind: "committed", published }` (the claims written). When another node moved the cursor
   * meanwhile nothing is written: `{ kind: "moved" }` (read the position again). A concurrent mover
   * of the same cursor waits for this transaction. An error of `write` rolls all of it back and is
   * rethrown.
   */
  commit<R>(
    stretch: FileLogStretch,
    claims: readonly FileLogClaim<R>[],
    write: (transaction: WriteTransaction, rows: R) => Promise<unknown>,
  ): Promise<FileLogCommit>;
  /**
   * Forgets request ids made before `cutoff` and cursors untouched since (logs rotated away long
   * ago); returns how many request ids. Lines that old are skipped when read (the follower's
   * retention rule, the same cutoff), so a forgotten id can never publish again.
   */
  forgetBefore(cutoff: number): Promise<number>;
}
