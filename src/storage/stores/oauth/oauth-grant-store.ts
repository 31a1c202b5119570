import { avatarExtensionOf } from "../../../accounts/domain/avatar-kinds.js";
import type { User } from "../../../accounts/ports.js";
import type {
  AccessTokenRecord,
  AuthorizedClient,
  CleanupCounts,
  CleanupProgress,
  CodeRecord,
  GracePair,
  GrantStore,
  NewCode,
  NewTokens,
  PendingSettlement,
  RefreshTokenRecord,
} from "../../../oauth/ports.js";
import type { Db, DbOrTx, Dialect } from "../../driver/database.js";
import { transaction } from "../../driver/prepared.js";
import { userFromRow } from "../../schema/accounts.js";
import { codeRecordOf, grantStatements, refreshRecordOf } from "./oauth-grant-statements.js";
import { newPairParams, redeemCodeInOneStatement, rotateRefreshTokenInOneStatement } from "./oauth-postgres-one-statement.js";
import { authorizedClients, liveGrantScopes } from "./oauth-user-grants.js";
import type { IssueSettlement } from "./token-gate.js";

/** A new grant's row (inside the caller's transaction); returns its id. */
export async function insertGrant(trx: DbOrTx, input: Parameters<GrantStore["createGrant"]>[0]): Promise<number> {
  const grant = await trx
    .insertInto("oauth2_grants")
    .values({
      client_id: input.clientInternalId,
      uid: input.uid,
      authorized_at: input.now,
      scope: input.identity?.scope ?? null,
      auth_time: input.identity?.authTime ?? null,
      nonce: input.identity?.nonce ?? null,
      session_id_hash: input.identity?.sessionIdHash ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(grant.id);
}

/** A grant's code row (inside the caller's transaction). */
export async function insertCode(trx: DbOrTx, grantId: number, now: number, code: NewCode): Promise<void> {
  await trx
    .insertInto("oauth2_codes")
    .values({
      code_hash: code.codeHash,
      grant_id: grantId,
      code_challenge: code.challenge,
      code_challenge_method: code.challengeMethod,
      redirect_uri: code.redirectUri,
      created_at: now,
      expires_at: code.expiresAt,
      consumed_at: null,
    })
    .execute();
}

/** Grants, codes and tokens; single use by compare-and-set inside one transaction (see GrantStore). */
export class KyselyGrantStore implements GrantStore {
  private readonly statements: ReturnType<typeof grantStatements>;
  private readonly redeemInOneStatement: ReturnType<typeof redeemCodeInOneStatement> | undefined;
  private readonly rotateInOneStatement: ReturnType<typeof rotateRefreshTokenInOneStatement> | undefined;
  /** The same, settling the token request's throttle bucket too (a success resetting its one bucket). */
  private readonly redeemAndSettleInOneStatement: ReturnType<typeof redeemCodeInOneStatement> | undefined;
  private readonly rotateAndSettleInOneStatement: ReturnType<typeof rotateRefreshTokenInOneStatement> | undefined;

  constructor(
    private readonly db: Db,
    dialect: Dialect,
    /** The token gate's settlements a redemption or rotation commits with itself. */
    private readonly settlement: IssueSettlement,
  ) {
    this.statements = grantStatements(db);
    this.redeemInOneStatement = dialect === "postgres" ? redeemCodeInOneStatement(db) : undefined;
    this.rotateInOneStatement = dialect === "postgres" ? rotateRefreshTokenInOneStatement(db) : undefined;
    this.redeemAndSettleInOneStatement = dialect === "postgres" ? redeemCodeInOneStatement(db, true) : undefined;
    this.rotateAndSettleInOneStatement = dialect === "postgres" ? rotateRefreshTokenInOneStatement(db, true) : undefined;
  }

  /** Writes the pair; returns the new refresh token's id (undefined for the implicit flow). */
  private async insertTokens(trx: DbOrTx, grantId: number, now: number, tokens: NewTokens): Promise<number | undefined> {
    const access = await this.statements.insertAccessToken.first(trx, {
      tokenHash: tokens.accessTokenHash,
      grantId,
      now,
      expiresAt: tokens.accessExpiresAt,
    });
    if (!access) throw new Error("the access token insert returned no id");
    if (!tokens.refresh) return undefined;
    const refresh = await this.statements.insertRefreshToken.first(trx, {
      tokenHash: tokens.refresh.tokenHash,
      grantId,
      accessTokenId: Number(access.id),
      now,
      expiresAt: tokens.refresh.expiresAt,
    });
    if (!refresh) throw new Error("the refresh token insert returned no id");
    return Number(refresh.id);
  }

  async createGrant(
    input: Parameters<GrantStore["createGrant"]>[0],
    first: Parameters<GrantStore["createGrant"]>[1],
  ): Promise<number> {
    return transaction(this.db, async (trx) => {
      const grantId = await insertGrant(trx, input);
      if ("code" in first) await insertCode(trx, grantId, input.now, first.code);
      else await this.insertTokens(trx, grantId, input.now, first.tokens);
      return grantId;
    });
  }

  /**
   * The code with everything its redemption checks, the bound redirect URI included. Only
   * `consumed_at` ever changes on a code row, so the checks made on this read still hold when
   * `redeemCode`'s compare-and-set (one statement on PostgreSQL, a transaction on SQLite) consumes it.
   */
  async findCode(codeHash: string): Promise<CodeRecord | undefined> {
    const row = await this.statements.findCode.first(this.db, { codeHash });
    return row && codeRecordOf(row);
  }

  async redeemCode(
    codeHash: string,
    now: number,
    tokens: NewTokens | undefined,
    options: { publicClient?: boolean; settle?: PendingSettlement | undefined } = {},
  ): Promise<boolean> {
    const settle = tokens ? options.settle : undefined;
    if (this.redeemInOneStatement && this.redeemAndSettleInOneStatement && tokens?.refresh) {
      const foldedBucket = this.settlement.foldedBucket(settle);
      const statement = foldedBucket === undefined ? this.redeemInOneStatement : this.redeemAndSettleInOneStatement;
      const consumed = await statement.first(this.db, {
        codeHash,
        ...newPairParams(now, tokens, tokens.refresh),
        publicClient: options.publicClient ? 1 : 0,
        ...(foldedBucket === undefined ? {} : { settleBucket: foldedBucket }),
      });
      if (consumed === undefined) return false;
      if (settle && foldedBucket === undefined) await this.settlement.within(this.db, settle);
      return true;
    }
    return transaction(this.db, async (trx) => {
      const consumed = await this.statements.consumeCode.first(trx, { codeHash, now });
      if (!consumed) return false;
      const grantId = Number(consumed.grant_id);
      if (tokens) await this.insertTokens(trx, grantId, now, tokens);
      if (tokens && options.publicClient) await this.statements.markPublicClient.execute(trx, { grantId });
      // The settlement commits with the exchange: one commit, not two.
      if (settle) await this.settlement.within(trx, settle);
      return true;
    });
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    const row = await this.statements.findRefreshToken.first(this.db, { tokenHash });
    return row && refreshRecordOf(row);
  }

  async rotateRefreshToken(
    record: RefreshTokenRecord,
    now: number,
    tokens: NewTokens,
    grace?: GracePair,
    settle?: PendingSettlement,
  ): Promise<boolean> {
    if (this.rotateInOneStatement && this.rotateAndSettleInOneStatement && tokens.refresh) {
      const settleBucket = this.settlement.foldedBucket(settle);
      const statement = settleBucket === undefined ? this.rotateInOneStatement : this.rotateAndSettleInOneStatement;
      const rotated = await statement.first(this.db, {
        id: record.id,
        ...newPairParams(now, tokens, tokens.refresh),
        graceSealed: grace?.sealed ?? null,
        graceExpiresAt: grace?.expiresAt ?? null,
        ...(settleBucket === undefined ? {} : { settleBucket }),
      });
      if (rotated === undefined) return false;
      if (settle && settleBucket === undefined) await this.settlement.within(this.db, settle);
      return true;
    }
    return transaction(this.db, async (trx) => {
      const rotated = await this.statements.rotateRefreshToken.first(trx, { id: record.id, now });
      if (!rotated) return false;
      if (rotated.access_token_id !== null) {
        await this.statements.deleteAccessToken.execute(trx, { id: Number(rotated.access_token_id) });
      }
      const successorId = await this.insertTokens(trx, record.grantId, now, tokens);
      // The predecessor's grace pair held the token rotated just now: it has no use left.
      await this.statements.deleteGraceOfSuccessor.execute(trx, { successorId: record.id });
      if (grace && successorId !== undefined) {
        await trx
          .insertInto("oauth2_refresh_grace")
          .values({
            refresh_token_id: record.id,
            successor_id: successorId,
            sealed_pair: grace.sealed,
            expires_at: grace.expiresAt,
          })
          .execute();
      }
      if (settle) await this.settlement.within(trx, settle);
      return true;
    });
  }

  async findGracePair(rotatedRefreshTokenId: number, now: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("oauth2_refresh_grace as x")
      .innerJoin("oauth2_refresh_tokens as s", "s.id", "x.successor_id")
      .select("x.sealed_pair")
      .where("x.refresh_token_id", "=", rotatedRefreshTokenId)
      .where("x.expires_at", ">", now)
      .where("s.rotated_at", "is", null)
      .executeTakeFirst();
    return row?.sealed_pair;
  }

  async purgeGracePairs(now: number): Promise<number> {
    const result = await this.db.deleteFrom("oauth2_refresh_grace").where("expires_at", "<=", now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async revokeGrant(grantId: number): Promise<boolean> {
    const result = await this.db.deleteFrom("oauth2_grants").where("id", "=", grantId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async revokeAccessToken(id: number): Promise<boolean> {
    return (await this.statements.deleteAccessToken.affected(this.db, { id })) === 1;
  }

  async findAccessToken(tokenHash: string): Promise<AccessTokenRecord | undefined> {
    return (await this.findAccessTokenWithUser(tokenHash))?.token;
  }

  async findAccessTokenWithUser(
    tokenHash: string,
  ): Promise<{ token: AccessTokenRecord; user: User; avatarExtension: string | null } | undefined> {
    const row = await this.statements.findAccessToken.first(this.db, { tokenHash });
    if (!row) return undefined;
    const token = {
      id: Number(row.id),
      grantId: Number(row.grant_id),
      uid: row.uid,
      clientId: row.client_id,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      scope: row.scope,
    };
    return {
      token,
      user: userFromRow({ ...row, created_at: row.user_created_at }),
      avatarExtension: row.avatar_content_type === null ? null : avatarExtensionOf(row.avatar_content_type),
    };
  }

  authorizedClients(uid: string, now: number): Promise<AuthorizedClient[]> {
    return authorizedClients(this.db, uid, now);
  }

  liveGrantScopes(uid: string, clientInternalId: number, now: number): Promise<string[]> {
    return liveGrantScopes(this.db, uid, clientInternalId, now);
  }

  async revokeClientForUser(uid: string, clientInternalId: number): Promise<number> {
    const result = await this.db
      .deleteFrom("oauth2_grants")
      .where("uid", "=", uid)
      .where("client_id", "=", clientInternalId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async revokeAllForUser(uid: string): Promise<number[]> {
    const rows = await this.db.deleteFrom("oauth2_grants").where("uid", "=", uid).returning("client_id").execute();
    return rows.map((row) => Number(row.client_id));
  }

  async cleanup(cutoff: number, onProgress?: CleanupProgress): Promise<Omit<CleanupCounts, "deviceCodes">> {
    const codes = await this.db.deleteFrom("oauth2_codes").where("expires_at", "<=", cutoff).executeTakeFirst();
    onProgress?.("codes", Number(codes.numDeletedRows));
    const refreshTokens = await this.db
      .deleteFrom("oauth2_refresh_tokens")
      .where((eb) => eb.or([eb("expires_at", "<=", cutoff), eb("rotated_at", "<=", cutoff)]))
      .executeTakeFirst();
    onProgress?.("refreshTokens", Number(refreshTokens.numDeletedRows));
    const accessTokens = await this.db.deleteFrom("oauth2_access_tokens").where("expires_at", "<=", cutoff).executeTakeFirst();
    onProgress?.("accessTokens", Number(accessTokens.numDeletedRows));
    const grants = await this.db
      .deleteFrom("oauth2_grants")
      .where("authorized_at", "<=", cutoff)
      .where((eb) =>
        eb.not(
          eb.or([
            eb.exists(
              eb.selectFrom("oauth2_codes").select("grant_id").whereRef("oauth2_codes.grant_id", "=", "oauth2_grants.id"),
            ),
            eb.exists(
              eb
                .selectFrom("oauth2_access_tokens")
                .select("grant_id")
                .whereRef("oauth2_access_tokens.grant_id", "=", "oauth2_grants.id"),
            ),
            eb.exists(
              eb
                .selectFrom("oauth2_refresh_tokens")
                .select("grant_id")
                .whereRef("oauth2_refresh_tokens.grant_id", "=", "oauth2_grants.id"),
            ),
          ]),
        ),
      )
      .executeTakeFirst();
    onProgress?.("grants", Number(grants.numDeletedRows));
    return {
      codes: Number(codes.numDeletedRows),
      accessTokens: Number(accessTokens.numDeletedRows),
      refreshTokens: Number(refreshTokens.numDeletedRows),
      grants: Number(grants.numDeletedRows),
    };
  }
}
