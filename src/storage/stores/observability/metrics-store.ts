import type { Db } from "../../driver/database.js";

/**
 * Live sessions and tokens, for the metrics (observability/metrics.ts), counted when Prometheus
 * scrapes (every 15–60 s), never on a request. Each count is an index range scan on `expires_at`
 * (indexed in migrations 0001, 0002 and 0005).
 */
export async function countLiveCredentials(
  db: Db,
  now: number,
): Promise<{ sessions: number; accessTokens: number; refreshTokens: number }> {
  const [sessions, accessTokens, refreshTokens] = await Promise.all([
    db
      .selectFrom("sessions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("expires_at", ">", now)
      .where("uid", "is not", null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("oauth2_access_tokens")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("expires_at", ">", now)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("oauth2_refresh_tokens")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("expires_at", ">", now)
      .where("rotated_at", "is", null)
      .executeTakeFirstOrThrow(),
  ]);
  return { sessions: Number(sessions.n), accessTokens: Number(accessTokens.n), refreshTokens: Number(refreshTokens.n) };
}
