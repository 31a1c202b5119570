import type { Clock } from "../clock.js";
import { randomToken, sha256Hex } from "../crypto/secrets.js";
import type { DbOrTx } from "../storage/database.js";
import { PreparedQuery } from "../storage/prepared.js";

export interface Session {
  /** The cookie value; only its SHA-256 is stored. */
  token: string;
  uid: string | null;
  csrfToken: string;
  expiresAt: number;
  /**
   * When its user logged in (OIDC Core §2 `auth_time`): the session's creation, since a logged-in
   * session is only ever started by a login (login.ts replaces the anonymous one).
   */
  authenticatedAt: number;
  /** When a request of this session was last seen (at most a minute stale, see touch). */
  lastSeenAt: number;
}

/** One of a user's live sessions as personal settings lists it. */
export interface SessionSummary {
  /**
   * The stored SHA-256 of the cookie value: names the session on the page and in the End form
   * without being the cookie secret itself.
   */
  id: string;
  userAgent: string | null;
  createdAt: number;
  lastSeenAt: number | null;
}

/** The User-Agent column's width (migration 0015). */
const USER_AGENT_MAX_LENGTH = 255;
/** last_seen_at is written at most this often per session: a page view is not a write each time. */
export const LAST_SEEN_RESOLUTION_SECONDS = 60;

/** A session's id on pages and forms: the hash the table stores, never the cookie value. */
export function sessionId(session: Pick<Session, "token">): string {
  return sha256Hex(session.token);
}

/**
 * Server-side sessions in the database, so any node can serve any request of a browser.
 * A visitor gets an anonymous session (uid null) to carry the login form's CSRF token; logging in
 * replaces it with a fresh session id (no session fixation).
 */
export class Sessions {
  /** Every request with a session cookie reads its session (see PreparedQuery). */
  private readonly byIdHash: PreparedQuery<
    { idHash: string },
    {
      uid: string | null;
      csrf_token: string;
      created_at: number;
      expires_at: number;
      last_seen_at: number | null;
      enabled: number | null;
    }
  >;

  constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock,
    private readonly lifetimeSeconds: () => number,
  ) {
    this.byIdHash = new PreparedQuery((slot) =>
      db
        .selectFrom("sessions")
        .leftJoin("users", "users.uid", "sessions.uid")
        .select([
          "sessions.uid",
          "sessions.csrf_token",
          "sessions.created_at",
          "sessions.expires_at",
          "sessions.last_seen_at",
          "users.enabled",
        ])
        .where("sessions.id_hash", "=", slot("idHash")),
    );
  }

  /** `userAgent` is the browser's header at login, kept (cut to the column) to name the session. */
  async start(uid: string | null, userAgent?: string): Promise<Session> {
    const now = this.clock.nowSeconds();
    const session: Session = {
      token: randomToken(32),
      uid,
      csrfToken: randomToken(32),
      // Anonymous sessions only carry a CSRF token for one login form: keep them short.
      expiresAt: now + (uid === null ? 3600 : this.lifetimeSeconds()),
      authenticatedAt: now,
      lastSeenAt: now,
    };
    await this.db
      .insertInto("sessions")
      .values({
        id_hash: sha256Hex(session.token),
        uid,
        csrf_token: session.csrfToken,
        created_at: now,
        expires_at: session.expiresAt,
        user_agent: userAgent ? userAgent.slice(0, USER_AGENT_MAX_LENGTH) : null,
        last_seen_at: now,
      })
      .execute();
    return session;
  }

  /** A live session for the cookie value; a session of a disabled user is not live. */
  async find(token: string): Promise<Session | undefined> {
    if (token.length === 0 || token.length > 128) return undefined;
    const row = await this.byIdHash.first(this.db, { idHash: sha256Hex(token) });
    if (!row || row.expires_at <= this.clock.nowSeconds()) return undefined;
    if (row.uid !== null && row.enabled !== 1) return undefined;
    return {
      token,
      uid: row.uid,
      csrfToken: row.csrf_token,
      expiresAt: row.expires_at,
      authenticatedAt: Number(row.created_at),
      lastSeenAt: Number(row.last_seen_at ?? row.created_at),
    };
  }

  /**
   * Marks an active user's session as seen and slides its expiry forward, in one write at most
   * once a minute per session (LAST_SEEN_RESOLUTION_SECONDS).
   */
  async touch(session: Session): Promise<void> {
    if (session.uid === null) return;
    const now = this.clock.nowSeconds();
    const expiresAt = now + this.lifetimeSeconds();
    const stale = now - session.lastSeenAt >= LAST_SEEN_RESOLUTION_SECONDS;
    if (!stale && expiresAt - session.expiresAt < LAST_SEEN_RESOLUTION_SECONDS) return;
    await this.db
      .updateTable("sessions")
      .set({ expires_at: expiresAt, last_seen_at: now })
      .where("id_hash", "=", sha256Hex(session.token))
      .execute();
    session.expiresAt = expiresAt;
    session.lastSeenAt = now;
  }

  /** A user's live sessions, the most recently seen first. */
  async listOf(uid: string): Promise<SessionSummary[]> {
    const rows = await this.db
      .selectFrom("sessions")
      .select(["id_hash", "user_agent", "created_at", "last_seen_at"])
      .where("uid", "=", uid)
      .where("expires_at", ">", this.clock.nowSeconds())
      .execute();
    return rows
      .map((r) => ({
        id: r.id_hash,
        userAgent: r.user_agent,
        createdAt: Number(r.created_at),
        lastSeenAt: r.last_seen_at === null ? null : Number(r.last_seen_at),
      }))
      .sort((a, b) => (b.lastSeenAt ?? b.createdAt) - (a.lastSeenAt ?? a.createdAt));
  }

  /**
   * Ends the session `id` (a SessionSummary id) when it is one of `uid`'s own; another user's
   * session id ends nothing. True when a session was ended.
   */
  async endOwn(uid: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom("sessions").where("uid", "=", uid).where("id_hash", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async end(token: string): Promise<void> {
    await this.db.deleteFrom("sessions").where("id_hash", "=", sha256Hex(token)).execute();
  }

  /**
   * Ends every session of a user except `keepToken`'s (a password change keeps the browser that
   * made it; an administrator's reset keeps none).
   */
  async endAllOf(uid: string, keepToken?: string): Promise<number> {
    let query = this.db.deleteFrom("sessions").where("uid", "=", uid);
    if (keepToken !== undefined) query = query.where("id_hash", "!=", sha256Hex(keepToken));
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteExpired(): Promise<number> {
    const result = await this.db.deleteFrom("sessions").where("expires_at", "<=", this.clock.nowSeconds()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
