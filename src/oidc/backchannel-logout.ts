import { hostname } from "node:os";
import type { EndedSessions } from "../accounts/ports.js";
import type { Clock } from "../clock.js";
import { randomToken } from "../crypto/secrets.js";
import type { ValueSigner } from "../crypto/value-signer.js";
import type { ClaimedLogout, LogoutQueueStore } from "./ports.js";
import type { SigningKeys } from "./signing-keys.js";

/** OpenID Back-Channel Logout 1.0 §2.4: the event a logout token carries. */
export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";
/** §2.4: `typ` of a logout token (explicit typing, RFC 8725 §3.11), so it is never taken for an ID token. */
export const LOGOUT_TOKEN_TYPE = "logout+jwt";
/** A logout token is valid for two minutes from its signing (§2.4 asks for a short `exp`). */
export const LOGOUT_TOKEN_LIFETIME_SECONDS = 120;
/**
 * The waits after each failed send: five sends in all, the last about an hour after the first
 * (§2.8 leaves retries to the OP). A delivery that fails five times is dropped with a warning.
 */
export const RETRY_DELAYS_SECONDS = [60, 300, 900, 2400] as const;
/** How long a node holds a claimed delivery: far longer than one send may take. */
const LEASE_SECONDS = 60;
/** One send's time limit. */
export const SEND_TIMEOUT_MS = 5000;
/** Deliveries looked at per round. */
const BATCH = 50;

/** §2.4 claims: `iss`, `aud`, `iat`, `exp`, `jti`, `events`, `sub` and `sid`, never a `nonce` (§2.4). */
export function logoutTokenClaims(input: {
  issuer: string;
  clientId: string;
  uid: string;
  sid: string;
  now: number;
  jti: string;
}): Record<string, unknown> {
  return {
    iss: input.issuer,
    aud: input.clientId,
    iat: input.now,
    exp: input.now + LOGOUT_TOKEN_LIFETIME_SECONDS,
    jti: input.jti,
    sub: input.uid,
    sid: input.sid,
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
  };
}

/** When to try again after `attempts` failed sends; undefined: give up. */
export function nextAttemptAfter(attempts: number, now: number): number | undefined {
  const delay = RETRY_DELAYS_SECONDS[attempts - 1];
  return delay === undefined ? undefined : now + delay;
}

/** The outcome of one POST: §2.8, 200 (or 204) is success; anything else, a redirect included, is not. */
type SendOutcome = { ok: true } | { ok: false; reason: string };

/**
 * §2.5: `logout_token` in an `application/x-www-form-urlencoded` POST body, to the registered URI as
 * it is (its query kept). Redirects are not followed (a redirect could carry the token elsewhere);
 * each send is bounded by SEND_TIMEOUT_MS.
 */
async function postLogoutToken(uri: string, logoutToken: string): Promise<SendOutcome> {
  try {
    const response = await fetch(uri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "cache-control": "no-cache" },
      body: new URLSearchParams({ logout_token: logoutToken }).toString(),
      redirect: "manual",
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.status === 200 || response.status === 204
      ? { ok: true }
      : { ok: false, reason: `HTTP ${String(response.status)}` };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return { ok: false, reason: error instanceof Error ? `${error.message}${cause}` : String(error) };
  }
}

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface BackchannelLogoutOptions {
  store: LogoutQueueStore;
  keys: SigningKeys;
  clock: Clock;
  /** HMAC of a session's id hash: its `sid`, a value that says nothing about the session cookie. */
  sidSigner: ValueSigner;
  log: Logger;
}

/**
 * OpenID Connect Back-Channel Logout 1.0. The token endpoint records which client got an ID token in
 * which session (`recordIdToken`); when sessions end (`sessionsEnded`, told by accounts), a delivery
 * per such client with a `backchannel_logout_uri` is queued in the database, in the caller's request,
 * and sent after it, in the background: the queue survives a restart, and any node may send a row
 * once it holds its lease (`deliverDue`, also run by the background job).
 */
export class BackchannelLogout {
  private readonly holder = `${hostname()}:${process.pid}:${randomToken(6)}`;
  private background: Promise<void> = Promise.resolve();

  constructor(private readonly options: BackchannelLogoutOptions) {}

  /** §2.1 `sid` of a session (its id hash, accounts/sessions.ts `sessionId`): stable, and no key to the session. */
  sidOf(sessionIdHash: string): string {
    return this.options.sidSigner.sign(sessionIdHash);
  }

  /** The token endpoint issued an ID token with `sid` to `clientId` in the session `sessionIdHash`. */
  recordIdToken(entry: { sessionIdHash: string; sid: string; clientId: string; uid: string; issuer: string }): Promise<void> {
    return this.options.store.recordSessionClient({ ...entry, now: this.options.clock.nowSeconds() });
  }

  /** Sessions ended: their clients' logout tokens are queued now and sent after the caller's answer. */
  async sessionsEnded(ended: EndedSessions): Promise<void> {
    const queued = await this.options.store.enqueue(ended, this.options.clock.nowSeconds());
    if (queued > 0) this.kick();
  }

  /** Runs a delivery round in the background, after any still running on this node. */
  kick(): void {
    // A round that fails (the database away) is logged; the job retries what it left queued.
    this.background = this.background
      .then(() => this.deliverDue())
      .then(
        () => undefined,
        (error: unknown) =>
          this.options.log.warn({ event: "oidc_backchannel_logout_round_failed", err: error }, "logout tokens not sent"),
      );
  }

  /** Waits for this node's background rounds (tests; a graceful stop). */
  settled(): Promise<void> {
    return this.background;
  }

  /** Sends every due delivery this node can claim; counts what happened. */
  async deliverDue(): Promise<{ sent: number; retried: number; dropped: number }> {
    const counts = { sent: 0, retried: 0, dropped: 0 };
    const { store, clock } = this.options;
    for (const id of await store.due(clock.nowSeconds(), BATCH)) {
      const now = clock.nowSeconds();
      const claimed = await store.claim(id, this.holder, now, now + LEASE_SECONDS);
      if (!claimed) continue;
      const outcome = await this.send(claimed);
      if (outcome.ok) {
        await store.finish(id, this.holder);
        counts.sent++;
        this.options.log.info({ event: "oidc_backchannel_logout_sent", client: claimed.clientId }, "logout token delivered");
        continue;
      }
      const attempts = claimed.attempts + 1;
      const next = nextAttemptAfter(attempts, clock.nowSeconds());
      const context = { event: "oidc_backchannel_logout_failed", client: claimed.clientId, attempts, reason: outcome.reason };
      if (next === undefined) {
        await store.finish(id, this.holder);
        counts.dropped++;
        this.options.log.warn(context, "logout token not delivered; given up");
      } else {
        await store.retryLater(id, this.holder, attempts, next);
        counts.retried++;
        this.options.log.info(context, "logout token not delivered; will retry");
      }
    }
    return counts;
  }

  /** Deletes the records of sessions that expired (nobody logged out, nothing to announce). */
  purgeEndedSessionRecords(): Promise<number> {
    return this.options.store.purgeEndedSessionRecords();
  }

  private async send(claimed: ClaimedLogout): Promise<SendOutcome> {
    const token = await this.options.keys.sign(
      logoutTokenClaims({
        issuer: claimed.issuer,
        clientId: claimed.clientId,
        uid: claimed.uid,
        sid: claimed.sid,
        now: this.options.clock.nowSeconds(),
        jti: randomToken(16),
      }),
      LOGOUT_TOKEN_TYPE,
    );
    return postLogoutToken(claimed.backchannelLogoutUri, token);
  }
}
