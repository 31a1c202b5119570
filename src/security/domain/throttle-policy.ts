import { sha256Hex } from "../../crypto/secrets.js";
import { throttleAddressOf } from "./client-address.js";

/**
 * Failed-attempt throttling in the database (table `throttle`), so the count holds across nodes.
 *
 * Every attempt is reserved before its credentials are checked, so concurrent attempts cannot all read "no failures": one
 * atomic upsert admits it or refuses it and returns its position, the bucket's recent failures plus
 * the attempts still in flight. An admitted attempt at position n waits baseDelayMs · 2^(n-1),
 * capped at maxDelayMs, exactly what the n-th attempt of a sequence would wait; so a concurrent
 * burst is spread out as a sequence would be instead of all reading "no failures". Refused (HTTP
 * 429 with Retry-After):
 * - the hard ceiling: from `lockoutAfterFailures` (failures + attempts in flight) on, until
 *   `lockoutSeconds` after the last failure;
 * - the capped delay's pace: an attempt that would wait the capped delay while another attempt of
 *   the bucket is in flight (the policy allows one attempt per capped delay, not many in parallel).
 * Failures older than `forgetAfterSeconds` no longer count. After the check, the attempt settles:
 * a failure counts, a success resets the buckets the caller names (and ends every in-flight
 * reservation of its buckets: a proven credential vouches for its address), anything else only
 * gives its reservation back.
 */
export interface ThrottlePolicy {
  /** The buckets' key prefix (`login`, `oauth`), so each policy purges its own rows. */
  namespace: string;
  baseDelayMs: number;
  maxDelayMs: number;
  forgetAfterSeconds: number;
  lockoutAfterFailures: number;
  lockoutSeconds: number;
}

/** The login form and HTTP Basic, per IP and per user: 25 s per attempt from the 8th failure, locked from the 30th. */
export const LOGIN_THROTTLE: ThrottlePolicy = {
  namespace: "login",
  baseDelayMs: 200,
  maxDelayMs: 25_000,
  forgetAfterSeconds: 12 * 3600,
  lockoutAfterFailures: 30,
  lockoutSeconds: 300,
};

/**
 * The OAuth token, revocation and introspection endpoints, per IP, counting what guessing produces
 * (unknown client, wrong secret, unknown code or refresh token). Gentler than login: the values
 * guessed are 64 random characters, and many desktop clients behind one NAT presenting refresh
 * tokens an administrator revoked must not lock each other out (the desktop client times out at 30 s).
 */
export const TOKEN_THROTTLE: ThrottlePolicy = {
  namespace: "oauth",
  baseDelayMs: 100,
  maxDelayMs: 10_000,
  forgetAfterSeconds: 3600,
  lockoutAfterFailures: 100,
  lockoutSeconds: 300,
};

/**
 * Login Flow v2 starts (`POST /index.php/login/v2`), per IP. Every flow started counts (there is no
 * wrong answer to fail with): a row per flow is what a flood would cost the database. A person sets
 * up a client with a few starts; an office behind one address with many more, spaced out: the delay
 * grows to 5 s (the desktop client waits 30 s), and refusal comes only after 300 starts without a
 * 10-minute pause (docs/decisions.md "Login Flow v2 throttling").
 */
export const LOGIN_FLOW_START_THROTTLE: ThrottlePolicy = {
  namespace: "flowstart",
  baseDelayMs: 100,
  maxDelayMs: 5_000,
  forgetAfterSeconds: 600,
  lockoutAfterFailures: 300,
  lockoutSeconds: 600,
};

/**
 * Login Flow v2 polls, per IP, counting only polls of tokens that name no flow (what guessing
 * produces); polling one's own flow, pending, expired or cancelled, never counts, so a client
 * polling every few seconds for the flow's 20 minutes is never slowed or refused. The same shape as
 * the token endpoints: the tokens are 128 random characters.
 */
export const LOGIN_FLOW_POLL_THROTTLE: ThrottlePolicy = {
  namespace: "flowpoll",
  baseDelayMs: 100,
  maxDelayMs: 10_000,
  forgetAfterSeconds: 3600,
  lockoutAfterFailures: 100,
  lockoutSeconds: 300,
};

/**
 * User codes entered on the device verification page (RFC 8628 §5.1: a user code has about 34
 * bits, so its guessing must be rate-limited), per address and per logged-in user, counting codes
 * that name no live pending authorization. A person mistyping a code a few times waits a little;
 * guessing is slowed to one try per 30 s from the 8th failure and locked out from the 20th for an
 * hour, so a guesser's odds over a code's ten minutes stay negligible whatever its address pool.
 */
export const DEVICE_USER_CODE_THROTTLE: ThrottlePolicy = {
  namespace: "devicecode",
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  forgetAfterSeconds: 3600,
  lockoutAfterFailures: 20,
  lockoutSeconds: 3600,
};

/**
 * Dynamic client registration (RFC 7591 §5: registration without an initial access token can be
 * abused to flood the server with clients), per IP. Every registration counts, accepted or refused,
 * as Login Flow v2 starts do: a person sets up one desktop client or command-line tool with a
 * registration, a few at most; after 20 within an hour the address is refused for an hour.
 */
export const REGISTRATION_THROTTLE: ThrottlePolicy = {
  namespace: "register",
  baseDelayMs: 100,
  maxDelayMs: 5_000,
  forgetAfterSeconds: 3600,
  lockoutAfterFailures: 20,
  lockoutSeconds: 3600,
};

/**
 * The second-factor challenge (a TOTP or recovery code after the password), per IP and per user.
 * The login's shape, with the ceiling at 10 failures: a 6-digit code has 10^6 values and three are
 * accepted at any time (RFC 6238 §5.2's window), so guessing must stay far slower than the
 * password's (RFC 4226 §7.3 asks for a throttling parameter; docs/security.md "Second factors").
 */
export const SECOND_FACTOR_THROTTLE: ThrottlePolicy = {
  namespace: "2fa",
  baseDelayMs: 200,
  maxDelayMs: 25_000,
  forgetAfterSeconds: 12 * 3600,
  lockoutAfterFailures: 10,
  lockoutSeconds: 600,
};

/**
 * One bucket an attempt counts in. A `shared` bucket (a client address) is used by many legitimate
 * clients at once (users behind one NAT, a busy integration): there, attempts in flight add to the
 * delay only once the bucket has a failure on record, and always to the ceiling. A personal bucket
 * (a user name) counts them from the first attempt: one user has no reason to send many password
 * attempts at once.
 */
export interface ThrottleBucket {
  key: string;
  shared: boolean;
}

/**
 * The per-user login bucket. Keyed by the SHA-256 of the user name exactly as the login looks it up
 * (user names match case-sensitively; the form trims, Basic does not), so the key has a fixed
 * length whatever name an attacker sends, and the same user always lands in
 * the same bucket from the form and from Basic.
 */
export function loginUserBucket(uid: string): ThrottleBucket {
  return { key: `${LOGIN_THROTTLE.namespace}:user:${sha256Hex(uid)}`, shared: false };
}

/** A policy's bucket for a client address: an IPv6 client's whole /64 (client-address.ts). */
function addressBucket(policy: ThrottlePolicy, ip: string): ThrottleBucket {
  return { key: `${policy.namespace}:ip:${throttleAddressOf(ip)}`, shared: true };
}

/** The login form and HTTP Basic count per client address and per user name. */
export function loginBuckets(ip: string, uid: string): ThrottleBucket[] {
  return [addressBucket(LOGIN_THROTTLE, ip), loginUserBucket(uid)];
}

/** The per-user bucket of the second-factor challenge (keyed as loginUserBucket is). */
export function secondFactorUserBucket(uid: string): ThrottleBucket {
  return { key: `${SECOND_FACTOR_THROTTLE.namespace}:user:${sha256Hex(uid)}`, shared: false };
}

/** The second-factor challenge counts per client address and per user. */
export function secondFactorBuckets(ip: string, uid: string): ThrottleBucket[] {
  return [addressBucket(SECOND_FACTOR_THROTTLE, ip), secondFactorUserBucket(uid)];
}

/** A passkey sign-in counts per client address (no user is known before the passkey is). */
export function passkeySignInBuckets(ip: string): ThrottleBucket[] {
  return [addressBucket(SECOND_FACTOR_THROTTLE, ip)];
}

/** The token-endpoint family counts per client address. */
export function tokenBuckets(ip: string): ThrottleBucket[] {
  return [addressBucket(TOKEN_THROTTLE, ip)];
}

/** User codes entered on the device verification page count per client address and per user. */
export function deviceUserCodeBuckets(ip: string, uid: string): ThrottleBucket[] {
  return [
    addressBucket(DEVICE_USER_CODE_THROTTLE, ip),
    { key: `${DEVICE_USER_CODE_THROTTLE.namespace}:user:${sha256Hex(uid)}`, shared: false },
  ];
}

/** Login Flow v2 starts count per client address. */
export function loginFlowStartBuckets(ip: string): ThrottleBucket[] {
  return [addressBucket(LOGIN_FLOW_START_THROTTLE, ip)];
}

/** Dynamic client registrations count per client address. */
export function registrationBuckets(ip: string): ThrottleBucket[] {
  return [addressBucket(REGISTRATION_THROTTLE, ip)];
}

/** Login Flow v2 polls count per client address. */
export function loginFlowPollBuckets(ip: string): ThrottleBucket[] {
  return [addressBucket(LOGIN_FLOW_POLL_THROTTLE, ip)];
}

export function delayForFailures(failures: number, policy: ThrottlePolicy): number {
  if (failures <= 0) return 0;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(failures - 1, 30));
}

/** The first position whose delay is the capped one (8 for both policies). */
export function cappedPosition(policy: ThrottlePolicy): number {
  let position = 1;
  while (delayForFailures(position, policy) < policy.maxDelayMs) position++;
  return position;
}

/**
 * After this long an in-flight reservation no longer counts: its attempt has waited the longest
 * delay and had a minute to finish, so the node that held it crashed or lost the database.
 */
export function inFlightForgetSeconds(policy: ThrottlePolicy): number {
  return Math.ceil(policy.maxDelayMs / 1000) + 60;
}

/** A bucket's row as stored (security/ports.ts BucketRow). */
export interface BucketCounts {
  failures: number;
  lastFailureAt: number;
  inFlight: number;
  lastAttemptAt: number;
}

/** The failures and attempts in flight of a row that still count at `now` (forgotten ones are 0). */
export function liveCounts(row: BucketCounts, policy: ThrottlePolicy, now: number): { failures: number; inFlight: number } {
  return {
    failures: row.lastFailureAt > now - policy.forgetAfterSeconds ? row.failures : 0,
    inFlight: row.lastAttemptAt > now - inFlightForgetSeconds(policy) ? row.inFlight : 0,
  };
}

/**
 * Seconds the lockout ceiling still refuses attempts in a bucket with these live counts, 0 when it
 * does not (the condition of the reservation statement, storage/statements/throttle.ts).
 */
export function lockoutSecondsLeft(
  live: { failures: number; inFlight: number },
  lastFailureAt: number,
  policy: ThrottlePolicy,
  now: number,
): number {
  if (live.failures + live.inFlight < policy.lockoutAfterFailures) return 0;
  if (live.inFlight === 0 && lastFailureAt <= now - policy.lockoutSeconds) return 0;
  return Math.max(1, lastFailureAt + policy.lockoutSeconds - now);
}

/**
 * The delay an admitted attempt owes, from its bucket's counts right after its reservation (this
 * attempt included): its position is the failures plus the attempts in flight before it, which
 * add only where they count (see ThrottleBucket.shared).
 */
export function reservationDelayMs(
  bucket: ThrottleBucket,
  counts: { failures: number; inFlight: number },
  policy: ThrottlePolicy,
): number {
  const inFlightBefore = counts.inFlight - 1;
  return delayForFailures(counts.failures + (!bucket.shared || counts.failures > 0 ? inFlightBefore : 0), policy);
}

/**
 * What to put in Retry-After for an attempt refused in a bucket with this row: the rest of the
 * lockout when the ceiling refused it, the capped delay when an attempt in flight did (it is
 * decided by then); at least 1 s.
 */
export function retryAfterSeconds(row: BucketCounts | undefined, policy: ThrottlePolicy, now: number): number {
  if (!row) return 1;
  const live = liveCounts(row, policy, now);
  let seconds = Math.max(1, lockoutSecondsLeft(live, row.lastFailureAt, policy, now));
  if (live.inFlight > 0) seconds = Math.max(seconds, Math.ceil(policy.maxDelayMs / 1000));
  return seconds;
}

/** Each bucket once, in key order (the order rows are locked in: two PostgreSQL transactions lock them alike). */
export function orderedBuckets(buckets: ThrottleBucket[]): ThrottleBucket[] {
  const byKey = new Map(buckets.map((bucket) => [bucket.key, bucket]));
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** What the next attempt in a bucket meets, as an administrator is shown it. */
export interface BucketState {
  /** Failures that still count. */
  failures: number;
  /** Attempts in flight that still count. */
  inFlight: number;
  /** What the next attempt would wait (ms), from its position (failures, and those in flight). */
  delayMs: number;
  /** Seconds the lockout ceiling still refuses every attempt; 0 when it does not. */
  lockedSeconds: number;
}

/** The state of `bucket` from its row (undefined: no row, nothing counted). */
export function bucketState(
  row: BucketCounts | undefined,
  bucket: ThrottleBucket,
  policy: ThrottlePolicy,
  now: number,
): BucketState {
  if (!row) return { failures: 0, inFlight: 0, delayMs: 0, lockedSeconds: 0 };
  const live = liveCounts(row, policy, now);
  // The next attempt's position, as Throttle.reserve computes it once that attempt is reserved.
  const position = live.failures + (!bucket.shared || live.failures > 0 ? live.inFlight : 0);
  return {
    ...live,
    delayMs: delayForFailures(position, policy),
    lockedSeconds: lockoutSecondsLeft(live, row.lastFailureAt, policy, now),
  };
}

/**
 * Each policy's bucket for one client address, built by the very function its endpoints count with
 * (so what an administrator is shown and resets is what the endpoints count, however an address is
 * grouped into its bucket). Keyed by the policy's namespace.
 */
const CLIENT_ADDRESS_BUCKETS: Record<string, (ip: string) => ThrottleBucket[]> = {
  // Only the address bucket is taken from the login's pair: the user name plays no part in it.
  [LOGIN_THROTTLE.namespace]: (ip) => loginBuckets(ip, ""),
  [TOKEN_THROTTLE.namespace]: tokenBuckets,
  [LOGIN_FLOW_START_THROTTLE.namespace]: loginFlowStartBuckets,
  [LOGIN_FLOW_POLL_THROTTLE.namespace]: loginFlowPollBuckets,
  // Only the address bucket: the user plays no part in it.
  [DEVICE_USER_CODE_THROTTLE.namespace]: (ip) => deviceUserCodeBuckets(ip, ""),
  [REGISTRATION_THROTTLE.namespace]: registrationBuckets,
  [SECOND_FACTOR_THROTTLE.namespace]: (ip) => secondFactorBuckets(ip, ""),
};

/** The namespaces of the policies that count client addresses (`login`, `oauth`, `flowstart`, `flowpoll`, `devicecode`, `register`, `2fa`). */
export const CLIENT_ADDRESS_NAMESPACES = Object.keys(CLIENT_ADDRESS_BUCKETS);

/** The bucket `policy` counts the client address `ip` in. */
export function clientAddressBucket(policy: ThrottlePolicy, ip: string): ThrottleBucket {
  const bucket = CLIENT_ADDRESS_BUCKETS[policy.namespace]?.(ip).find((candidate) => candidate.shared);
  if (!bucket) throw new Error(`the throttle policy ${policy.namespace} counts no client address`);
  return bucket;
}

/** The address (or address group) a bucket built by clientAddressBucket counts, as its key names it. */
export function countedAddressOf(policy: ThrottlePolicy, bucket: ThrottleBucket): string {
  const prefix = `${policy.namespace}:ip:`;
  return bucket.key.startsWith(prefix) ? bucket.key.slice(prefix.length) : bucket.key;
}
