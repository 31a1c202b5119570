import { type QueryCreator, sql } from "kysely";
import type { NewTokens } from "../../../oauth/ports.js";
import type { Database, Db } from "../../driver/database.js";
import { PreparedQuery, type SlotFactory } from "../../driver/prepared.js";
import { SETTLED_AND_RESET } from "../../statements/throttle.js";

/**
 * PostgreSQL only: a code redemption and a refresh rotation as one statement each (data-modifying
 * CTEs, all or nothing in the statement's own transaction). SQLite runs the
 * same rules as a transaction in oauth-grant-store.ts.
 */

/** What a one-statement write binds for the pair it issues. */
export interface NewPairParams {
  now: number;
  accessTokenHash: string;
  accessExpiresAt: number;
  refreshTokenHash: string;
  refreshExpiresAt: number;
}

/** The pair's values for either statement; `refresh` is passed apart, checked present by the caller. */
export function newPairParams(now: number, tokens: NewTokens, refresh: NonNullable<NewTokens["refresh"]>): NewPairParams {
  return {
    now,
    accessTokenHash: tokens.accessTokenHash,
    accessExpiresAt: tokens.accessExpiresAt,
    refreshTokenHash: refresh.tokenHash,
    refreshExpiresAt: refresh.expiresAt,
  };
}

/** A statement whose `gate` CTE returns the grant of the code consumed or the token rotated. */
type Gated = Database & { gate: { grant_id: number } };

/** What a statement that also settles the request's throttle bucket binds: the bucket's key. */
export interface SettleParams {
  settleBucket: string;
}

/**
 * The token request's throttle settlement (a success resetting its one bucket), as the CTE
 * `settled`, only when the `gate` CTE's compare-and-set won: the settlement rides in the issue's
 * statement instead of a round trip of its own.
 */
function withSettlement<Q>(query: Q, slot: SlotFactory<SettleParams>): Q {
  return (query as unknown as QueryCreator<Gated>).with("settled", (q) =>
    q
      .updateTable("throttle")
      .set(SETTLED_AND_RESET)
      .where("bucket", "=", slot("settleBucket"))
      .where((eb) => eb.exists(eb.selectFrom("gate").select("grant_id"))),
  ) as unknown as Q;
}

/**
 * The new access and refresh token, inserted as the CTEs `access` and `refresh` for the row the
 * `gate` CTE returned (none when its compare-and-set lost); `refresh` returns the new id. Parameters
 * in a SELECT list have no type PostgreSQL can infer, hence the casts.
 */
function withNewPair(query: QueryCreator<Gated>, slot: SlotFactory<NewPairParams>) {
  return query
    .with("access", (q) =>
      q
        .insertInto("oauth2_access_tokens")
        .columns(["token_hash", "grant_id", "created_at", "expires_at"])
        .expression((eb) =>
          eb
            .selectFrom("gate")
            .select([
              sql<string>`cast(${slot("accessTokenHash")} as text)`.as("token_hash"),
              "grant_id",
              sql<number>`cast(${slot("now")} as bigint)`.as("created_at"),
              sql<number>`cast(${slot("accessExpiresAt")} as bigint)`.as("expires_at"),
            ]),
        )
        .returning(["id", "grant_id"]),
    )
    .with("refresh", (q) =>
      q
        .insertInto("oauth2_refresh_tokens")
        .columns(["token_hash", "grant_id", "access_token_id", "created_at", "expires_at"])
        .expression((eb) =>
          eb
            .selectFrom("access")
            .select([
              sql<string>`cast(${slot("refreshTokenHash")} as text)`.as("token_hash"),
              "grant_id",
              "id",
              sql<number>`cast(${slot("now")} as bigint)`.as("created_at"),
              sql<number>`cast(${slot("refreshExpiresAt")} as bigint)`.as("expires_at"),
            ]),
        )
        .returning("id"),
    );
}

interface RedeemParams extends NewPairParams {
  codeHash: string;
  /** 1 marks the grant as a public client's (see markPublicClient), 0 leaves it. */
  publicClient: number;
}

/**
 * PostgreSQL only: a code redeemed in one statement. The code's compare-and-set and the two token
 * inserts are data-modifying CTEs, which PostgreSQL runs in the statement's own transaction, all or
 * nothing, each once; the tokens are inserted only for the row the compare-and-set consumed. One
 * round trip instead of five (BEGIN, consume, two inserts, COMMIT): on PostgreSQL every statement is
 * a round trip, where on SQLite (which has no data-modifying CTEs) it is a few microseconds, so
 * SQLite keeps the steps of `redeemCode` in a transaction.
 */
export function redeemCodeInOneStatement(db: Db, settles = false) {
  return new PreparedQuery<RedeemParams & Partial<SettleParams>, { grant_id: number }>((slot) => {
    const issued = withNewPair(
      db.with("gate", (q) =>
        q
          .updateTable("oauth2_codes")
          .set({ consumed_at: slot("now") })
          .where("code_hash", "=", slot("codeHash"))
          .where("consumed_at", "is", null)
          .returning("grant_id"),
      ),
      slot,
    ).with("marked", (q) =>
      q
        .updateTable("oauth2_grants")
        .set({ public_client: 1 })
        .where("id", "in", (eb) => eb.selectFrom("gate").select("grant_id"))
        .where(sql<number>`cast(${slot("publicClient")} as integer)`, "=", 1),
    );
    return (settles ? withSettlement(issued, slot as SlotFactory<SettleParams>) : issued).selectFrom("gate").select("grant_id");
  });
}

interface RotateParams extends NewPairParams {
  id: number;
  /** The grace pair to keep for the rotated token, or null (no grace window). */
  graceSealed: string | null;
  graceExpiresAt: number | null;
}

/**
 * PostgreSQL only: a refresh token rotated in one statement, for the reasons given at
 * redeemCodeInOneStatement (one round trip instead of seven, eight with a grace pair). The
 * compare-and-set on `rotated_at` gates every other part: the old access token is deleted, the new
 * pair inserted, the predecessor's grace pair dropped and the new one kept only when this statement
 * rotated the token. The old access token's `ON DELETE SET NULL` on the rotated row runs at the end
 * of the statement, after its update.
 */
export function rotateRefreshTokenInOneStatement(db: Db, settles = false) {
  return new PreparedQuery<RotateParams & Partial<SettleParams>, { grant_id: number }>((slot) => {
    const issued = withNewPair(
      db
        .with("gate", (q) =>
          q
            .updateTable("oauth2_refresh_tokens")
            .set({ rotated_at: slot("now") })
            .where("id", "=", slot("id"))
            .where("rotated_at", "is", null)
            .returning(["grant_id", "access_token_id"]),
        )
        .with("dropped", (q) =>
          q.deleteFrom("oauth2_access_tokens").where("id", "in", (eb) => eb.selectFrom("gate").select("access_token_id")),
        ),
      slot,
    )
      .with("predecessor_grace", (q) =>
        q
          .deleteFrom("oauth2_refresh_grace")
          .where("successor_id", "=", slot("id"))
          .where((eb) => eb.exists(eb.selectFrom("gate").select("grant_id"))),
      )
      .with("grace", (q) =>
        q
          .insertInto("oauth2_refresh_grace")
          .columns(["refresh_token_id", "successor_id", "sealed_pair", "expires_at"])
          .expression((eb) =>
            eb
              .selectFrom("refresh")
              .select([
                sql<number>`cast(${slot("id")} as bigint)`.as("refresh_token_id"),
                "id",
                sql<string>`cast(${slot("graceSealed")} as text)`.as("sealed_pair"),
                sql<number>`cast(${slot("graceExpiresAt")} as bigint)`.as("expires_at"),
              ])
              .where(sql<string | null>`cast(${slot("graceSealed")} as text)`, "is not", null),
          ),
      );
    return (settles ? withSettlement(issued, slot as SlotFactory<SettleParams>) : issued).selectFrom("gate").select("grant_id");
  });
}
