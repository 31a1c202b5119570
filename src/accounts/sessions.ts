import type { Clock } from "../clock.js";
import { randomToken, sha256Hex } from "../security/secrets.js";
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
    { uid: string | null; csrf_token: string; created_at: number; expires_at: number; enabled: number | null }
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
        .select(["sessions.uid", "sessions.csrf_token", "sessions.created_at", "sessions.expires_at", "users.enabled"])
        .where("sessions.id_hash", "=", slot("idHash")),
    );
  }

  async start(uid: string | null): Promise<Session> {
    const now = this.clock.nowSeconds();
    const session: Session = {
      token: randomToken(32),
      uid,
      csrfToken: randomToken(32),
      // Anonymous sessions only carry a CSRF token for one login form: keep them short.
      expiresAt: now + (uid === null ? 3600 : this.lifetimeSeconds()),
      authenticatedAt: now,
    };
    await this.db
      .insertInto("sessions")
      .values({
        id_hash: sha256Hex(session.token),
        uid,
        csrf_token: session.csrfToken,
        created_at: now,
        expires_at: session.expiresAt,
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
    };
  }

  /** Slides the expiry forward for an active user (at most once a minute per session). */
  async touch(session: Session): Promise<void> {
    if (session.uid === null) return;
    const expiresAt = this.clock.nowSeconds() + this.lifetimeSeconds();
    if (expiresAt - session.expiresAt < 60) return;
    await this.db
      .updateTable("sessions")
      .set({ expires_at: expiresAt })
      .where("id_hash", "=", sha256Hex(session.token))
      .execute();
    session.expiresAt = expiresAt;
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
