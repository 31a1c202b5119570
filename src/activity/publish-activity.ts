import { fail, ok, type Result } from "./domain/errors.js";
import { validateBatch, validateEvent } from "./domain/event.js";
import {
  IDEMPOTENCY_KEY_LIFETIME_SECONDS,
  type Publisher,
  parseIdempotencyKey,
  publisherScope,
  requestFingerprint,
} from "./domain/idempotency.js";
import type { ActivityStore, IdempotencyStore, NewActivity } from "./ports.js";

/** What a publish made with an idempotency key answers: the ids, and whether they are a replay. */
export interface PublishAnswer {
  ids: number[];
  /** True when the key was seen before: nothing was written, these are the first request's ids. */
  replayed: boolean;
}

/**
 * Publishes one event or an array of events (docs/upstream/nextcloud-activity.md §9.1 validation),
 * all-or-nothing: every element is validated and every affected user checked first; then all rows
 * are inserted in one transaction. Returns the ids written, in input order.
 */
export async function publishActivities(
  store: ActivityStore,
  input: unknown,
  now: number,
  written: WrittenObserver = async () => undefined,
): Promise<Result<number[]>> {
  const rows = await validatedRows(store, input, now);
  if (!rows.ok) return rows;
  const ids = await store.insertAll(rows.value);
  await written(rows.value);
  return ok(ids);
}

/** Told the rows a publish wrote, once they are committed (a replay wrote none: not told). */
export type WrittenObserver = (rows: readonly NewActivity[]) => Promise<void>;

/**
 * As publishActivities, under an idempotency key (draft-ietf-httpapi-idempotency-key-header):
 * the first request with a key within 24 h writes its events and records the key, the request's
 * fingerprint and the ids in the same transaction; a later one with the same key and body gets
 * those ids again and writes nothing (§2.6); with another body it is refused (§2.7, 422).
 * A refused publish records nothing: it wrote nothing, so a retry is evaluated afresh.
 */
export async function publishActivitiesOnce(
  stores: { activity: ActivityStore; keys: IdempotencyStore },
  publisher: Publisher,
  rawKey: string,
  input: unknown,
  now: number,
  written: WrittenObserver = async () => undefined,
): Promise<Result<PublishAnswer>> {
  const parsed = parseIdempotencyKey(rawKey);
  if ("refused" in parsed) return fail({ code: "invalid_idempotency_key", message: parsed.refused });
  const claim = {
    scope: publisherScope(publisher),
    key: parsed.key,
    uid: publisher.kind === "user" ? publisher.uid : null,
    fingerprint: requestFingerprint(input),
    now,
    expiredAt: now - IDEMPOTENCY_KEY_LIFETIME_SECONDS,
  };
  const seen = await stores.keys.find(claim.scope, claim.key, claim.expiredAt);
  if (seen) return replay(seen, claim.fingerprint, claim.key);
  const rows = await validatedRows(stores.activity, input, now);
  if (!rows.ok) return rows;
  const outcome = await stores.keys.claimAndWrite(claim, (trx) => stores.activity.insertInto(trx, rows.value));
  if (outcome.kind === "seen") return replay(outcome.answer, claim.fingerprint, claim.key);
  await written(rows.value);
  return ok({ ids: outcome.value, replayed: false });
}

function replay(seen: { fingerprint: string; ids: number[] }, fingerprint: string, key: string): Result<PublishAnswer> {
  if (seen.fingerprint !== fingerprint) return fail({ code: "idempotency_key_reused", key });
  return ok({ ids: seen.ids, replayed: true });
}

async function validatedRows(store: ActivityStore, input: unknown, now: number): Promise<Result<NewActivity[]>> {
  const rows = validateBatch(input, now);
  if (typeof rows === "string") return fail({ code: "invalid_event", message: rows });
  return withKnownUsers(rows, await store.existingUsers(affectedUsersOf(rows)));
}

/**
 * For writers that publish inside their own transaction and skip, rather than refuse, what publish
 * would refuse (the proxy-log follower): each event checked exactly as publish checks it (one
 * query for the users of all of them), its rows or why it is refused. Write the rows with
 * ActivityStore.insertInto, the insert publish uses.
 */
export async function validateEachForPublish(
  store: ActivityStore,
  events: readonly unknown[],
  now: number,
): Promise<Result<NewActivity[]>[]> {
  const validated = events.map((event) => validateEvent(event, now));
  const rows = validated.flatMap((v) => (typeof v === "string" ? [] : v));
  const existing = await store.existingUsers(affectedUsersOf(rows));
  return validated.map((v) =>
    typeof v === "string" ? fail({ code: "invalid_event", message: v }) : withKnownUsers(v, existing),
  );
}

function affectedUsersOf(rows: readonly NewActivity[]): string[] {
  return [...new Set(rows.map((r) => r.affecteduser))];
}

/**
 * docs/upstream/nextcloud-activity.md §9.1: an activity for a user that does not exist is refused,
 * naming the users.
 */
function withKnownUsers(rows: NewActivity[], existing: ReadonlySet<string>): Result<NewActivity[]> {
  const missing = affectedUsersOf(rows).filter((uid) => !existing.has(uid));
  if (missing.length > 0) {
    return fail({
      code: "invalid_event",
      message: `unknown affected user${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`,
    });
  }
  return ok(rows);
}
