import type { Selectable } from "kysely";
import type { CodeRecord, OAuthClient, ReadAheadFound, ReadAheadPlan, RefreshTokenRecord, TokenLookups } from "../oauth/ports.js";
import type { ThrottleBucket } from "../security/domain/throttle-policy.js";
import type { ReservedCounts } from "../security/ports.js";
import type { Db, Dialect } from "./database.js";
import { CLIENT_COLUMNS, type KyselyClientStore } from "./oauth-client-store.js";
import {
  type CodeRow,
  codeRecordOf,
  type RefreshRow,
  refreshRecordOf,
  selectCode,
  selectRefreshToken,
} from "./oauth-grant-statements.js";
import { PreparedQuery } from "./prepared.js";
import type { OAuthClientsTable } from "./schema/oauth.js";
import { countsOf, type ReservedRow, type SqlThrottleStore, toSlots } from "./throttle-store.js";

/** The client's columns, prefixed (`cl_id` …): the code's and the token's rows have a `client_id` of their own. */
type PrefixedClientRow = { [K in (typeof CLIENT_COLUMNS)[number] as `cl_${K}`]: Selectable<OAuthClientsTable>[K] };
/** A row of the client, with the presented artefact's columns, all null when there is no such artefact. */
type WithNulls<T> = { [K in keyof T]: T[K] | null };

/** A row of the reservation (the CTE `reserved`) with the client and the presented artefact. */
type ReservedWith<T> = ReservedRow & WithNulls<PrefixedClientRow> & WithNulls<T>;

/**
 * The token endpoint's first read as one statement: the client the request names, with the code or
 * refresh token it presents, each read by the same query as ClientStore.findByClientId and
 * GrantStore.findCode / findRefreshToken (the presented one as a subquery left-joined to the
 * client: absent, its columns are null). On PostgreSQL one round trip instead of two, and with the
 * throttle's reservation as a data-modifying CTE, one round trip for both (reserveAndRead).
 */
export class KyselyTokenLookups implements TokenLookups {
  private readonly clientWithCodeStatement: PreparedQuery<
    { clientId: string; codeHash: string },
    PrefixedClientRow & WithNulls<CodeRow>
  >;
  private readonly clientWithRefreshTokenStatement: PreparedQuery<
    { clientId: string; tokenHash: string },
    PrefixedClientRow & WithNulls<RefreshRow>
  >;

  /** reserveAndRead's statements on PostgreSQL, per artefact and kind of bucket. */
  private readonly reserving = new Map<
    string,
    PreparedQuery<Record<string, string | number>, ReservedWith<CodeRow | RefreshRow>>
  >();

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly clients: KyselyClientStore,
    /** The token endpoint's throttle (its policy is part of the reservation statement). */
    private readonly throttle: SqlThrottleStore,
  ) {
    const clientColumns = CLIENT_COLUMNS.map((column) => `cl.${column} as cl_${column}` as const);
    this.clientWithCodeStatement = new PreparedQuery(
      (slot) =>
        db
          .selectFrom("oauth2_clients as cl")
          .leftJoin(selectCode(db, slot).as("k"), (join) => join.onTrue())
          .select(clientColumns)
          .selectAll("k")
          .where("cl.client_id", "=", slot("clientId")) as never,
    );
    this.clientWithRefreshTokenStatement = new PreparedQuery(
      (slot) =>
        db
          .selectFrom("oauth2_clients as cl")
          .leftJoin(selectRefreshToken(db, slot).as("k"), (join) => join.onTrue())
          .select(clientColumns)
          .selectAll("k")
          .where("cl.client_id", "=", slot("clientId")) as never,
    );
  }

  async clientWithCode(
    clientId: string,
    codeHash: string,
  ): Promise<{ client: OAuthClient; code: CodeRecord | undefined } | undefined> {
    await this.clients.seeded();
    const row = await this.clientWithCodeStatement.first(this.db, { clientId, codeHash });
    return row ? this.withCode(row) : undefined;
  }

  async clientWithRefreshToken(
    clientId: string,
    tokenHash: string,
  ): Promise<{ client: OAuthClient; refreshToken: RefreshTokenRecord | undefined } | undefined> {
    await this.clients.seeded();
    const row = await this.clientWithRefreshTokenStatement.first(this.db, { clientId, tokenHash });
    return row ? this.withRefreshToken(row) : undefined;
  }

  /**
   * PostgreSQL: the reservation as the CTE `reserved` (PostgreSQL's data-modifying CTEs; the
   * statement commits it before anything is checked, as ThrottleStore.reserve does), the client and
   * the artefact selected from it, so a refused attempt returns no row and reads nothing. SQLite has
   * no data-modifying CTEs (and no round trips to save): the reservation, then the read.
   */
  async reserveAndRead(
    bucket: ThrottleBucket,
    now: number,
    plan: ReadAheadPlan,
  ): Promise<{ counts: ReservedCounts | undefined; found: ReadAheadFound }> {
    if (this.dialect !== "postgres") {
      const counts = await this.throttle.reserve(bucket, now);
      if (counts === undefined) return { counts, found: undefined };
      const found =
        "codeHash" in plan
          ? await this.clientWithCode(plan.clientId, plan.codeHash)
          : await this.clientWithRefreshToken(plan.clientId, plan.refreshTokenHash);
      return { counts, found };
    }
    await this.clients.seeded();
    const withCode = "codeHash" in plan;
    const statement = this.reservingStatement(bucket, withCode);
    const row = await statement.first(this.db, {
      ...this.throttle.reservationParams(bucket, now),
      clientId: plan.clientId,
      ...("codeHash" in plan ? { codeHash: plan.codeHash } : { tokenHash: plan.refreshTokenHash }),
    });
    if (!row) return { counts: undefined, found: undefined };
    const counts = countsOf(row);
    if (row.cl_id === null) return { counts, found: undefined };
    const found = withCode
      ? this.withCode(row as unknown as PrefixedClientRow & WithNulls<CodeRow>)
      : this.withRefreshToken(row as unknown as PrefixedClientRow & WithNulls<RefreshRow>);
    return { counts, found };
  }

  private reservingStatement(bucket: ThrottleBucket, withCode: boolean) {
    const key = `${withCode ? "code" : "refresh"}:${bucket.shared}`;
    let statement = this.reserving.get(key);
    if (!statement) {
      const db = this.db;
      const clientColumns = CLIENT_COLUMNS.map((column) => `cl.${column} as cl_${column}` as const);
      statement = new PreparedQuery((slot) => {
        const text = (name: string) => slot(name) as string;
        const reserved = db
          .with("reserved", () => this.throttle.reservation(db, bucket, toSlots(slot)))
          .selectFrom("reserved as r")
          .leftJoin("oauth2_clients as cl", (join) => join.on("cl.client_id", "=", text("clientId")))
          .select(["r.failures", "r.in_flight"])
          .select(clientColumns);
        return withCode
          ? (reserved.leftJoin(selectCode(db, text).as("k"), (join) => join.onTrue()).selectAll("k") as never)
          : (reserved.leftJoin(selectRefreshToken(db, text).as("k"), (join) => join.onTrue()).selectAll("k") as never);
      });
      this.reserving.set(key, statement);
    }
    return statement;
  }

  /** The client and the code a row found with it (no code: the left join's columns are null). */
  private withCode(row: PrefixedClientRow & WithNulls<CodeRow>): { client: OAuthClient; code: CodeRecord | undefined } {
    return { client: this.clientOf(row), code: row.grant_id === null ? undefined : codeRecordOf(row as CodeRow) };
  }

  /** The client and the refresh token a row found with it (none: the left join's columns are null). */
  private withRefreshToken(row: PrefixedClientRow & WithNulls<RefreshRow>): {
    client: OAuthClient;
    refreshToken: RefreshTokenRecord | undefined;
  } {
    return { client: this.clientOf(row), refreshToken: row.id === null ? undefined : refreshRecordOf(row as RefreshRow) };
  }

  private clientOf(row: PrefixedClientRow): OAuthClient {
    return this.clients.toClient({
      id: row.cl_id,
      name: row.cl_name,
      client_id: row.cl_client_id,
      secret_encrypted: row.cl_secret_encrypted,
      redirect_uri: row.cl_redirect_uri,
      allow_subdomains: row.cl_allow_subdomains,
      trusted: row.cl_trusted,
      resource_server: row.cl_resource_server,
      account_access: row.cl_account_access,
      post_logout_redirect_uri: row.cl_post_logout_redirect_uri,
      trusted_scopes: row.cl_trusted_scopes,
      created_at: row.cl_created_at,
      registered_at: row.cl_registered_at,
      last_used_at: row.cl_last_used_at,
    });
  }
}
