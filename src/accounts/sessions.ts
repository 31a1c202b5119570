import type { Clock } from "../clock.js";
import { randomToken, sha256Hex } from "../crypto/secrets.js";
import type { EndedSessions, SessionEndObserver, SessionPending, SessionStore, SessionSummary } from "./ports.js";

export interface Session {
  /** The cookie value; only its SHA-256 is stored. */
  token: string;
  uid: string | null;
  csrfToken: string;
  expiresAt: number;
  /**
   * When its user logged in (OIDC Core §2 `auth_time`): the session's creation, since a logged-in
   * session is only ever started by a login (routes/login.ts).
   */
  authenticatedAt: number;
  /** When a request of this session was last seen (at most a minute stale, see touch). */
  lastSeenAt: number;
  /**
   * The step still owed after the password (null: a complete login). A session with a step owed
   * is no principal anywhere (accounts/authentication.ts): it can only finish the step or log out.
   */
  pending: SessionPending | null;
}

/**
 * How long a session that has passed only the password lives: long enough to open an
 * authenticator app or find a recovery code, not a lasting half-login (Nextcloud keeps the
 * pending login in the PHP session, which ends with the browser's session cookie).
 */
export const PENDING_SESSION_SECONDS = 10 * 60;

/** The width of the sessions table's User-Agent column. */
const USER_AGENT_MAX_LENGTH = 255;
/** last_seen_at is written at most this often per session: a page view is not a write each time. */
export const LAST_SEEN_RESOLUTION_SECONDS = 60;

/** A session's id on pages and forms: the hash the table stores, never the cookie value. */
export function sessionId(session: Pick<Session, "token">): string {
  return sha256Hex(session.token);
}

/** Tells each observer, one after the other, that sessions ended. */
export async function notifyEnded(observers: readonly SessionEndObserver[], ended: EndedSessions): Promise<void> {
  for (const observer of observers) await observer.sessionsEnded(ended);
}

/**
 * Server-side sessions in the database, so any node can serve any request of a browser. A session
 * is started by a successful login only, always with a fresh id (no session fixation); the login
 * form's CSRF token needs no session (http/login-form-token.ts). Rows with uid null are anonymous
 * sessions of earlier versions, which expire within their hour.
 */
export class Sessions {
  constructor(
    private readonly store: SessionStore,
    private readonly clock: Clock,
    private readonly lifetimeSeconds: () => number,
    /** Told of every session a user or an administrator ends. */
    private readonly endObservers: readonly SessionEndObserver[] = [],
  ) {}

  /**
   * `userAgent` is the browser's header at login, kept (cut to the column) to name the session.
   * `pending`: the password is proven, `pending` is still owed; such a session lives
   * PENDING_SESSION_SECONDS and is never extended.
   */
  async start(uid: string, userAgent?: string, pending: SessionPending | null = null): Promise<Session> {
    const now = this.clock.nowSeconds();
    const session: Session = {
      token: randomToken(32),
      uid,
      csrfToken: randomToken(32),
      expiresAt: now + (pending === null ? this.lifetimeSeconds() : PENDING_SESSION_SECONDS),
      authenticatedAt: now,
      lastSeenAt: now,
      pending,
    };
    await this.store.insert({
      idHash: sha256Hex(session.token),
      uid,
      csrfToken: session.csrfToken,
      createdAt: now,
      expiresAt: session.expiresAt,
      userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX_LENGTH) : null,
      lastSeenAt: now,
      pending,
    });
    return session;
  }

  /**
   * Ends a session that owed a step and starts the complete login in its place, with a new id (the
   * id seen before the second factor is worth nothing after it) and `auth_time` now.
   */
  async complete(pendingSession: Session, userAgent?: string): Promise<Session> {
    if (pendingSession.uid === null) throw new Error("an anonymous session cannot be completed");
    await this.end(pendingSession.token);
    return this.start(pendingSession.uid, userAgent);
  }

  /** A live session for the cookie value; a session of a disabled user is not live. */
  async find(token: string): Promise<Session | undefined> {
    if (token.length === 0 || token.length > 128) return undefined;
    const stored = await this.store.findByIdHash(sha256Hex(token));
    if (!stored || stored.expiresAt <= this.clock.nowSeconds()) return undefined;
    if (stored.uid !== null && !stored.userEnabled) return undefined;
    return {
      token,
      uid: stored.uid,
      csrfToken: stored.csrfToken,
      expiresAt: stored.expiresAt,
      authenticatedAt: stored.createdAt,
      lastSeenAt: stored.lastSeenAt ?? stored.createdAt,
      pending: stored.pending,
    };
  }

  /**
   * Marks an active user's session as seen and slides its expiry forward, in one write at most
   * once a minute per session (LAST_SEEN_RESOLUTION_SECONDS).
   */
  async touch(session: Session): Promise<void> {
    if (session.uid === null || session.pending !== null) return;
    const now = this.clock.nowSeconds();
    const expiresAt = now + this.lifetimeSeconds();
    const stale = now - session.lastSeenAt >= LAST_SEEN_RESOLUTION_SECONDS;
    if (!stale && expiresAt - session.expiresAt < LAST_SEEN_RESOLUTION_SECONDS) return;
    await this.store.extend(sha256Hex(session.token), expiresAt, now);
    session.expiresAt = expiresAt;
    session.lastSeenAt = now;
  }

  /** A user's live sessions, the most recently seen first. */
  async listOf(uid: string): Promise<SessionSummary[]> {
    const sessions = await this.store.listLiveOf(uid, this.clock.nowSeconds());
    return sessions.sort((a, b) => (b.lastSeenAt ?? b.createdAt) - (a.lastSeenAt ?? a.createdAt));
  }

  /**
   * Ends the session `id` (a SessionSummary id) when it is one of `uid`'s own; another user's
   * session id ends nothing. True when a session was ended.
   */
  async endOwn(uid: string, id: string): Promise<boolean> {
    const ended = await this.store.deleteOwn(uid, id);
    if (ended) await notifyEnded(this.endObservers, { sessionIdHash: id });
    return ended;
  }

  async end(token: string): Promise<void> {
    const idHash = sha256Hex(token);
    await this.store.delete(idHash);
    await notifyEnded(this.endObservers, { sessionIdHash: idHash });
  }

  /**
   * Ends every session of a user except `keepToken`'s (a password change keeps the browser that
   * made it; an administrator's reset keeps none).
   */
  async endAllOf(uid: string, keepToken?: string): Promise<number> {
    const keep = keepToken === undefined ? undefined : sha256Hex(keepToken);
    const ended = await this.store.deleteAllOf(uid, keep);
    await notifyEnded(this.endObservers, { uid, exceptSessionIdHash: keep });
    return ended;
  }

  deleteExpired(): Promise<number> {
    return this.store.deleteExpired(this.clock.nowSeconds());
  }
}
