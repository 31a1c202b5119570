import { type QueryCreator, type Selectable, sql, type Updateable } from "kysely";
import { type User, userFromRow } from "../accounts/users.js";
import type { ClientFields } from "../oauth/domain/client-rules.js";
import type {
  AccessTokenRecord,
  AuthorizedClient,
  CleanupCounts,
  CleanupProgress,
  ClientStore,
  CodeRecord,
  GracePair,
  GrantStore,
  NewTokens,
  OAuthClient,
  RefreshTokenRecord,
} from "../oauth/ports.js";
import type { SecretSealer } from "../security/secret-box.js";
import type { Database, Db, DbOrTx, Dialect } from "./database.js";
import { PreparedQuery, type SlotFactory, transaction } from "./prepared.js";
import type { UsersTable } from "./schema/accounts.js";
import type { OAuthClientsTable } from "./schema/oauth.js";

type Logger = { info(obj: object, msg: string): void };

/** More clients than a server has; the memo of opened secrets is cleared past it. */
const OPENED_SECRETS_LIMIT = 10_000;

/**
 * Clients in oauth2_clients, secrets sealed with the data directory's key. ownCloud's default
 * clients are written on first use of the store (research A.4): the migration lists their names in
 * oauth2_pending_seeds and each is claimed by one DELETE, so across nodes every default is seeded
 * exactly once, and a default an operator removed never comes back.
 */
export class KyselyClientStore implements ClientStore {
  private seeding: Promise<void> | undefined;
  /**
   * Decrypted secrets by envelope: every token request reads its client, and an envelope always
   * opens to the same secret, so AES-GCM runs once per secret version (a changed secret is a new
   * envelope). Bounded by the number of clients; cleared if it ever outgrows that.
   */
  private readonly openedSecrets = new Map<string, string>();
  /** Every token request looks its client up by client_id (see PreparedQuery). */
  private readonly byClientId: PreparedQuery<{ clientId: string }, Selectable<OAuthClientsTable>>;

  constructor(
    private readonly db: Db,
    private readonly box: SecretSealer,
    private readonly defaults: readonly ClientFields[],
    private readonly log: Logger,
  ) {
    this.byClientId = new PreparedQuery((slot) =>
      db
        .selectFrom("oauth2_clients")
        .select([
          "id",
          "name",
          "client_id",
          "secret_encrypted",
          "redirect_uri",
          "allow_subdomains",
          "trusted",
          "resource_server",
          "post_logout_redirect_uri",
          "created_at",
        ])
        .where("client_id", "=", slot("clientId")),
    );
  }

  private seeded(): Promise<void> {
    this.seeding ??= this.seed().catch((error: unknown) => {
      this.seeding = undefined;
      throw error;
    });
    return this.seeding;
  }

  private async seed(): Promise<void> {
    const pending = await this.db.selectFrom("oauth2_pending_seeds").select("name").execute();
    for (const { name } of pending) {
      const fields = this.defaults.find((d) => d.name === name);
      await transaction(this.db, async (trx) => {
        const claimed = await trx.deleteFrom("oauth2_pending_seeds").where("name", "=", name).executeTakeFirst();
        if (Number(claimed.numDeletedRows) !== 1 || !fields) return;
        const clash = await trx
          .selectFrom("oauth2_clients")
          .select("id")
          .where((eb) => eb.or([eb("name", "=", fields.name), eb("client_id", "=", fields.clientId)]))
          .executeTakeFirst();
        if (clash) return;
        await trx.insertInto("oauth2_clients").values(this.row(fields, 0)).execute();
        this.log.info({ event: "oauth2_client_seeded", name }, `The client ${name} has been added.`);
      });
    }
  }

  private row(fields: ClientFields, now: number) {
    return {
      name: fields.name,
      client_id: fields.clientId,
      secret_encrypted: this.box.encrypt(fields.secret),
      redirect_uri: fields.redirectUri,
      allow_subdomains: fields.allowSubdomains ? 1 : 0,
      trusted: fields.trusted ? 1 : 0,
      resource_server: fields.resourceServer ? 1 : 0,
      post_logout_redirect_uri: fields.postLogoutRedirectUri ?? null,
      created_at: now,
    };
  }

  private openSecret(envelope: string): string {
    let secret = this.openedSecrets.get(envelope);
    if (secret === undefined) {
      secret = this.box.decrypt(envelope);
      if (this.openedSecrets.size >= OPENED_SECRETS_LIMIT) this.openedSecrets.clear();
      this.openedSecrets.set(envelope, secret);
    }
    return secret;
  }

  private toClient(row: Selectable<OAuthClientsTable>): OAuthClient {
    return {
      id: Number(row.id),
      name: row.name,
      clientId: row.client_id,
      secret: this.openSecret(row.secret_encrypted),
      redirectUri: row.redirect_uri,
      allowSubdomains: row.allow_subdomains === 1,
      trusted: row.trusted === 1,
      resourceServer: row.resource_server === 1,
      ...(row.post_logout_redirect_uri === null ? {} : { postLogoutRedirectUri: row.post_logout_redirect_uri }),
    };
  }

  async list(): Promise<OAuthClient[]> {
    await this.seeded();
    const rows = await this.db.selectFrom("oauth2_clients").selectAll().orderBy("id").execute();
    return rows.map((r) => this.toClient(r));
  }

  private async findBy(column: "id" | "name", value: string | number): Promise<OAuthClient | undefined> {
    await this.seeded();
    const row = await this.db
      .selectFrom("oauth2_clients")
      .selectAll()
      .where(column, "=", value as never)
      .executeTakeFirst();
    return row ? this.toClient(row) : undefined;
  }

  findById(id: number): Promise<OAuthClient | undefined> {
    return Number.isSafeInteger(id) ? this.findBy("id", id) : Promise.resolve(undefined);
  }

  async findByClientId(clientId: string): Promise<OAuthClient | undefined> {
    await this.seeded();
    const row = await this.byClientId.first(this.db, { clientId });
    return row ? this.toClient(row) : undefined;
  }

  findByName(name: string): Promise<OAuthClient | undefined> {
    return this.findBy("name", name);
  }

  async insert(fields: ClientFields, now: number): Promise<OAuthClient | undefined> {
    await this.seeded();
    try {
      const { id } = await this.db
        .insertInto("oauth2_clients")
        .values(this.row(fields, now))
        .returning("id")
        .executeTakeFirstOrThrow();
      return { ...fields, id: Number(id) };
    } catch (error) {
      if (await this.collides(fields.name, fields.clientId)) return undefined;
      throw error;
    }
  }

  private async collides(name: string | undefined, clientId: string | undefined, exceptId?: number): Promise<boolean> {
    const row = await this.db
      .selectFrom("oauth2_clients")
      .select("id")
      .where((eb) => eb.or([eb("name", "=", name ?? null), eb("client_id", "=", clientId ?? null)]))
      .$if(exceptId !== undefined, (qb) => qb.where("id", "!=", exceptId as number))
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(id: number, changes: Partial<ClientFields>): Promise<boolean> {
    await this.seeded();
    const set: Updateable<OAuthClientsTable> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.clientId !== undefined) set.client_id = changes.clientId;
    if (changes.secret !== undefined) set.secret_encrypted = this.box.encrypt(changes.secret);
    if (changes.redirectUri !== undefined) set.redirect_uri = changes.redirectUri;
    if (changes.allowSubdomains !== undefined) set.allow_subdomains = changes.allowSubdomains ? 1 : 0;
    if (changes.trusted !== undefined) set.trusted = changes.trusted ? 1 : 0;
    if (changes.resourceServer !== undefined) set.resource_server = changes.resourceServer ? 1 : 0;
    if (changes.postLogoutRedirectUri !== undefined) set.post_logout_redirect_uri = changes.postLogoutRedirectUri;
    try {
      await this.db.updateTable("oauth2_clients").set(set).where("id", "=", id).execute();
      return true;
    } catch (error) {
      if (await this.collides(changes.name, changes.clientId, id)) return false;
      throw error;
    }
  }

  async remove(id: number): Promise<boolean> {
    await this.seeded();
    const result = await this.db.deleteFrom("oauth2_clients").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}

/**
 * The statements of the token endpoint and of bearer authentication, compiled once (see
 * PreparedQuery): these run on every token, refresh, userinfo and API request.
 */
function grantStatements(db: Db) {
  return {
    findCode: new PreparedQuery<{ codeHash: string }, CodeRow>((slot) =>
      db
        .selectFrom("oauth2_codes as c")
        .innerJoin("oauth2_grants as g", "g.id", "c.grant_id")
        .innerJoin("users as u", "u.uid", "g.uid")
        .select([
          "u.enabled as user_enabled",
          "c.grant_id",
          "g.client_id",
          "g.uid",
          "c.code_challenge",
          "c.code_challenge_method",
          "c.redirect_uri",
          "c.expires_at",
          "c.consumed_at",
          "g.scope",
          "g.auth_time",
          "g.nonce",
        ])
        .where("c.code_hash", "=", slot("codeHash")),
    ),
    consumeCode: new PreparedQuery<{ codeHash: string; now: number }, { grant_id: number }>((slot) =>
      db
        .updateTable("oauth2_codes")
        .set({ consumed_at: slot("now") })
        .where("code_hash", "=", slot("codeHash"))
        .where("consumed_at", "is", null)
        .returning("grant_id"),
    ),
    markPublicClient: new PreparedQuery<{ grantId: number }, unknown>((slot) =>
      db.updateTable("oauth2_grants").set({ public_client: 1 }).where("id", "=", slot("grantId")),
    ),
    insertAccessToken: new PreparedQuery<{ tokenHash: string; grantId: number; now: number; expiresAt: number }, { id: number }>(
      (slot) =>
        db
          .insertInto("oauth2_access_tokens")
          .values({
            token_hash: slot("tokenHash"),
            grant_id: slot("grantId"),
            created_at: slot("now"),
            expires_at: slot("expiresAt"),
          })
          .returning("id"),
    ),
    insertRefreshToken: new PreparedQuery<
      { tokenHash: string; grantId: number; accessTokenId: number; now: number; expiresAt: number },
      { id: number }
    >((slot) =>
      db
        .insertInto("oauth2_refresh_tokens")
        .values({
          token_hash: slot("tokenHash"),
          grant_id: slot("grantId"),
          access_token_id: slot("accessTokenId"),
          created_at: slot("now"),
          expires_at: slot("expiresAt"),
          rotated_at: null,
        })
        .returning("id"),
    ),
    findRefreshToken: new PreparedQuery<{ tokenHash: string }, RefreshRow>((slot) =>
      db
        .selectFrom("oauth2_refresh_tokens as r")
        .innerJoin("oauth2_grants as g", "g.id", "r.grant_id")
        .innerJoin("oauth2_clients as c", "c.id", "g.client_id")
        .innerJoin("users as u", "u.uid", "g.uid")
        .select([
          "u.enabled as user_enabled",
          "r.id",
          "r.grant_id",
          "g.client_id as client_internal_id",
          "c.client_id",
          "g.uid",
          "g.public_client",
          "r.access_token_id",
          "r.created_at",
          "r.expires_at",
          "r.rotated_at",
          "g.scope",
          "g.auth_time",
          "g.nonce",
        ])
        .where("r.token_hash", "=", slot("tokenHash")),
    ),
    rotateRefreshToken: new PreparedQuery<{ id: number; now: number }, { access_token_id: number | null }>((slot) =>
      db
        .updateTable("oauth2_refresh_tokens")
        .set({ rotated_at: slot("now") })
        .where("id", "=", slot("id"))
        .where("rotated_at", "is", null)
        .returning("access_token_id"),
    ),
    deleteAccessToken: new PreparedQuery<{ id: number }, unknown>((slot) =>
      db.deleteFrom("oauth2_access_tokens").where("id", "=", slot("id")),
    ),
    deleteGraceOfSuccessor: new PreparedQuery<{ successorId: number }, unknown>((slot) =>
      db.deleteFrom("oauth2_refresh_grace").where("successor_id", "=", slot("successorId")),
    ),
    findAccessToken: new PreparedQuery<{ tokenHash: string }, AccessRow>((slot) =>
      db
        .selectFrom("oauth2_access_tokens as a")
        .innerJoin("oauth2_grants as g", "g.id", "a.grant_id")
        .innerJoin("oauth2_clients as c", "c.id", "g.client_id")
        .innerJoin("users as u", "u.uid", "g.uid")
        .select(["a.id", "a.grant_id", "c.client_id", "a.created_at", "a.expires_at", "g.scope"])
        .select(["u.uid", "u.display_name", "u.email", "u.enabled", "u.is_admin", "u.created_at as user_created_at"])
        .where("a.token_hash", "=", slot("tokenHash")),
    ),
  };
}

/** The grant's OpenID Connect columns (migration 0011), read with its codes and tokens. */
interface GrantIdentityRow {
  scope: string | null;
  auth_time: number | null;
  nonce: string | null;
}

function identityOf(row: GrantIdentityRow) {
  return { scope: row.scope, authTime: row.auth_time === null ? null : Number(row.auth_time), nonce: row.nonce };
}

interface CodeRow extends GrantIdentityRow {
  grant_id: number;
  client_id: number;
  uid: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  redirect_uri: string | null;
  expires_at: number;
  consumed_at: number | null;
  user_enabled: number;
}

interface RefreshRow extends GrantIdentityRow {
  id: number;
  grant_id: number;
  client_internal_id: number;
  client_id: string;
  uid: string;
  public_client: number;
  access_token_id: number | null;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
  user_enabled: number;
}

interface AccessRow extends Omit<UsersTable, "created_at" | "password_hash"> {
  id: number;
  grant_id: number;
  client_id: string;
  created_at: number;
  expires_at: number;
  user_created_at: number;
  scope: string | null;
}

/** What a one-statement write binds for the pair it issues. */
interface NewPairParams {
  now: number;
  accessTokenHash: string;
  accessExpiresAt: number;
  refreshTokenHash: string;
  refreshExpiresAt: number;
}

/** The pair's values for either statement; `refresh` is passed apart, checked present by the caller. */
function newPairParams(now: number, tokens: NewTokens, refresh: NonNullable<NewTokens["refresh"]>): NewPairParams {
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
function redeemCodeInOneStatement(db: Db) {
  return new PreparedQuery<RedeemParams, { grant_id: number }>((slot) =>
    withNewPair(
      db.with("gate", (q) =>
        q
          .updateTable("oauth2_codes")
          .set({ consumed_at: slot("now") })
          .where("code_hash", "=", slot("codeHash"))
          .where("consumed_at", "is", null)
          .returning("grant_id"),
      ),
      slot,
    )
      .with("marked", (q) =>
        q
          .updateTable("oauth2_grants")
          .set({ public_client: 1 })
          .where("id", "in", (eb) => eb.selectFrom("gate").select("grant_id"))
          .where(sql<number>`cast(${slot("publicClient")} as integer)`, "=", 1),
      )
      .selectFrom("gate")
      .select("grant_id"),
  );
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
function rotateRefreshTokenInOneStatement(db: Db) {
  return new PreparedQuery<RotateParams, { grant_id: number }>((slot) =>
    withNewPair(
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
      )
      .selectFrom("gate")
      .select("grant_id"),
  );
}

/** Grants, codes and tokens; single use by compare-and-set inside one transaction (see GrantStore). */
export class KyselyGrantStore implements GrantStore {
  private readonly statements: ReturnType<typeof grantStatements>;
  private readonly redeemInOneStatement: ReturnType<typeof redeemCodeInOneStatement> | undefined;
  private readonly rotateInOneStatement: ReturnType<typeof rotateRefreshTokenInOneStatement> | undefined;

  constructor(
    private readonly db: Db,
    dialect: Dialect,
  ) {
    this.statements = grantStatements(db);
    this.redeemInOneStatement = dialect === "postgres" ? redeemCodeInOneStatement(db) : undefined;
    this.rotateInOneStatement = dialect === "postgres" ? rotateRefreshTokenInOneStatement(db) : undefined;
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
      const grant = await trx
        .insertInto("oauth2_grants")
        .values({
          client_id: input.clientInternalId,
          uid: input.uid,
          authorized_at: input.now,
          scope: input.identity?.scope ?? null,
          auth_time: input.identity?.authTime ?? null,
          nonce: input.identity?.nonce ?? null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const grantId = Number(grant.id);
      if ("code" in first) {
        await trx
          .insertInto("oauth2_codes")
          .values({
            code_hash: first.code.codeHash,
            grant_id: grantId,
            code_challenge: first.code.challenge,
            code_challenge_method: first.code.challengeMethod,
            redirect_uri: first.code.redirectUri,
            created_at: input.now,
            expires_at: first.code.expiresAt,
            consumed_at: null,
          })
          .execute();
      } else {
        await this.insertTokens(trx, grantId, input.now, first.tokens);
      }
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
    if (!row) return undefined;
    return {
      grantId: Number(row.grant_id),
      clientInternalId: Number(row.client_id),
      uid: row.uid,
      challenge: row.code_challenge,
      challengeMethod: row.code_challenge_method,
      redirectUri: row.redirect_uri,
      expiresAt: row.expires_at,
      consumed: row.consumed_at !== null,
      userEnabled: row.user_enabled === 1,
      ...identityOf(row),
    };
  }

  async redeemCode(
    codeHash: string,
    now: number,
    tokens: NewTokens | undefined,
    options: { publicClient?: boolean } = {},
  ): Promise<boolean> {
    if (this.redeemInOneStatement && tokens?.refresh) {
      const consumed = await this.redeemInOneStatement.first(this.db, {
        codeHash,
        ...newPairParams(now, tokens, tokens.refresh),
        publicClient: options.publicClient ? 1 : 0,
      });
      return consumed !== undefined;
    }
    return transaction(this.db, async (trx) => {
      const consumed = await this.statements.consumeCode.first(trx, { codeHash, now });
      if (!consumed) return false;
      const grantId = Number(consumed.grant_id);
      if (tokens) await this.insertTokens(trx, grantId, now, tokens);
      if (tokens && options.publicClient) await this.statements.markPublicClient.execute(trx, { grantId });
      return true;
    });
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    const row = await this.statements.findRefreshToken.first(this.db, { tokenHash });
    if (!row) return undefined;
    return {
      id: Number(row.id),
      grantId: Number(row.grant_id),
      clientInternalId: Number(row.client_internal_id),
      clientId: row.client_id,
      uid: row.uid,
      accessTokenId: row.access_token_id === null ? null : Number(row.access_token_id),
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      rotated: row.rotated_at !== null,
      publicClient: row.public_client === 1,
      userEnabled: row.user_enabled === 1,
      ...identityOf(row),
    };
  }

  async rotateRefreshToken(record: RefreshTokenRecord, now: number, tokens: NewTokens, grace?: GracePair): Promise<boolean> {
    if (this.rotateInOneStatement && tokens.refresh) {
      const rotated = await this.rotateInOneStatement.first(this.db, {
        id: record.id,
        ...newPairParams(now, tokens, tokens.refresh),
        graceSealed: grace?.sealed ?? null,
        graceExpiresAt: grace?.expiresAt ?? null,
      });
      return rotated !== undefined;
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

  async findAccessTokenWithUser(tokenHash: string): Promise<{ token: AccessTokenRecord; user: User } | undefined> {
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
    return { token, user: userFromRow({ ...row, created_at: row.user_created_at }) };
  }

  async authorizedClients(uid: string, now: number): Promise<AuthorizedClient[]> {
    const rows = await this.db
      .selectFrom("oauth2_grants as g")
      .innerJoin("oauth2_clients as c", "c.id", "g.client_id")
      .select(["c.id", "c.client_id", "c.name"])
      .distinct()
      .where("g.uid", "=", uid)
      .where((eb) =>
        eb.or([
          eb.exists(
            eb
              .selectFrom("oauth2_codes as k")
              .select("k.grant_id")
              .whereRef("k.grant_id", "=", "g.id")
              .where("k.consumed_at", "is", null)
              .where("k.expires_at", ">", now),
          ),
          eb.exists(
            eb
              .selectFrom("oauth2_access_tokens as a")
              .select("a.grant_id")
              .whereRef("a.grant_id", "=", "g.id")
              .where("a.expires_at", ">", now),
          ),
          eb.exists(
            eb
              .selectFrom("oauth2_refresh_tokens as r")
              .select("r.grant_id")
              .whereRef("r.grant_id", "=", "g.id")
              .where("r.rotated_at", "is", null)
              .where("r.expires_at", ">", now),
          ),
        ]),
      )
      .orderBy("c.name")
      .execute();
    return rows.map((r) => ({ id: Number(r.id), clientId: r.client_id, name: r.name }));
  }

  async revokeClientForUser(uid: string, clientInternalId: number): Promise<number> {
    const result = await this.db
      .deleteFrom("oauth2_grants")
      .where("uid", "=", uid)
      .where("client_id", "=", clientInternalId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async cleanup(cutoff: number, onProgress?: CleanupProgress): Promise<CleanupCounts> {
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
