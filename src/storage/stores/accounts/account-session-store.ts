import type { NewSessionRecord, SessionPending, SessionStore, SessionSummary, StoredSession } from "../../../accounts/ports.js";
import type { DbOrTx } from "../../driver/database.js";
import { PreparedQuery } from "../../driver/prepared.js";

/** The column's text as the port's value; anything unknown is the strictest step (the challenge). */
function pendingOf(value: string | null): SessionPending | null {
  if (value === null) return null;
  return value === "second_factor_setup" ? "second_factor_setup" : "second_factor";
}

/** Browser sessions (table sessions), keyed by the SHA-256 hex of the cookie value. */
export class SqlSessionStore implements SessionStore {
  /** Every request with a session cookie reads its session (see PreparedQuery). */
  private readonly byIdHash: PreparedQuery<
    { idHash: string },
    {
      uid: string | null;
      csrf_token: string;
      created_at: number;
      expires_at: number;
      last_seen_at: number | null;
      second_factor_pending: string | null;
      enabled: number | null;
    }
  >;

  constructor(private readonly db: DbOrTx) {
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
          "sessions.second_factor_pending",
          "users.enabled",
        ])
        .where("sessions.id_hash", "=", slot("idHash")),
    );
  }

  async insert(session: NewSessionRecord): Promise<void> {
    await this.db
      .insertInto("sessions")
      .values({
        id_hash: session.idHash,
        uid: session.uid,
        csrf_token: session.csrfToken,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
        user_agent: session.userAgent,
        last_seen_at: session.lastSeenAt,
        second_factor_pending: session.pending ?? null,
      })
      .execute();
    if (session.uid !== null && (session.pending ?? null) === null) {
      await this.db.updateTable("users").set({ last_login_at: session.createdAt }).where("uid", "=", session.uid).execute();
    }
  }

  async findByIdHash(idHash: string): Promise<StoredSession | undefined> {
    const row = await this.byIdHash.first(this.db, { idHash });
    if (!row) return undefined;
    return {
      uid: row.uid,
      csrfToken: row.csrf_token,
      createdAt: Number(row.created_at),
      expiresAt: row.expires_at,
      lastSeenAt: row.last_seen_at === null ? null : Number(row.last_seen_at),
      userEnabled: row.enabled === 1,
      pending: pendingOf(row.second_factor_pending),
    };
  }

  async extend(idHash: string, expiresAt: number, lastSeenAt: number): Promise<void> {
    await this.db
      .updateTable("sessions")
      .set({ expires_at: expiresAt, last_seen_at: lastSeenAt })
      .where("id_hash", "=", idHash)
      .execute();
  }

  async listLiveOf(uid: string, now: number): Promise<SessionSummary[]> {
    const rows = await this.db
      .selectFrom("sessions")
      .select(["id_hash", "user_agent", "created_at", "last_seen_at"])
      .where("uid", "=", uid)
      .where("expires_at", ">", now)
      .execute();
    return rows.map((r) => ({
      id: r.id_hash,
      userAgent: r.user_agent,
      createdAt: Number(r.created_at),
      lastSeenAt: r.last_seen_at === null ? null : Number(r.last_seen_at),
    }));
  }

  async deleteOwn(uid: string, idHash: string): Promise<boolean> {
    const result = await this.db.deleteFrom("sessions").where("uid", "=", uid).where("id_hash", "=", idHash).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async delete(idHash: string): Promise<void> {
    await this.db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
  }

  async deleteAllOf(uid: string, keepIdHash?: string): Promise<number> {
    let query = this.db.deleteFrom("sessions").where("uid", "=", uid);
    if (keepIdHash !== undefined) query = query.where("id_hash", "!=", keepIdHash);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteExpired(now: number): Promise<number> {
    const result = await this.db.deleteFrom("sessions").where("expires_at", "<=", now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
