import type { Selectable } from "kysely";
import type { CodeRecord, OAuthClient, RefreshTokenRecord, TokenLookups } from "../oauth/ports.js";
import type { ReadAheadFound, ReadAheadPlan } from "../oauth/read-ahead.js";
import type { ReservationRider, ReservedQueryCreator } from "../security/throttle.js";
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

/** The client's columns, prefixed (`cl_id` …): the code's and the token's rows have a `client_id` of their own. */
type PrefixedClientRow = { [K in (typeof CLIENT_COLUMNS)[number] as `cl_${K}`]: Selectable<OAuthClientsTable>[K] };
/** A row of the client, with the presented artefact's columns, all null when there is no such artefact. */
type WithNulls<T> = { [K in keyof T]: T[K] | null };

/**
 * The token endpoint's first read as one statement (issue 17): the client the request names, with
 * the code or refresh token it presents, each read by the same query as ClientStore.findByClientId
 * and GrantStore.findCode / findRefreshToken (the presented one as a subquery left-joined to the
 * client: absent, its columns are null). On PostgreSQL one round trip instead of two.
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

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly clients: KyselyClientStore,
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
   * PostgreSQL: the same reads selecting from the throttle's reservation (the CTE `reserved`, see
   * Throttle.reserveWith), so a token request's reservation and its first read are one round trip.
   * SQLite has no data-modifying CTEs (and no round trips): undefined there.
   */
  async riderFor(plan: ReadAheadPlan): Promise<ReservationRider<ReadAheadFound> | undefined> {
    if (this.dialect !== "postgres") return undefined;
    await this.clients.seeded();
    const db = this.db;
    const clientColumns = CLIENT_COLUMNS.map((column) => `cl.${column} as cl_${column}` as const);
    const withClient = (reserved: ReservedQueryCreator, slot: (name: string) => string) =>
      reserved
        .selectFrom("reserved as r")
        .leftJoin("oauth2_clients as cl", (join) => join.on("cl.client_id", "=", slot("clientId")))
        .select(["r.failures", "r.in_flight"])
        .select(clientColumns);
    if ("codeHash" in plan) {
      return {
        key: "token-lookups:code",
        select: (reserved, slot) =>
          withClient(reserved, slot)
            .leftJoin(selectCode(db, (name) => slot(name)).as("k"), (join) => join.onTrue())
            .selectAll("k") as never,
        params: { clientId: plan.clientId, codeHash: plan.codeHash },
        decode: (reservedRow) => {
          const row = reservedRow as unknown as PrefixedClientRow & WithNulls<CodeRow>;
          return row.cl_id === null ? undefined : this.withCode(row);
        },
      };
    }
    return {
      key: "token-lookups:refresh",
      select: (reserved, slot) =>
        withClient(reserved, slot)
          .leftJoin(selectRefreshToken(db, (name) => slot(name)).as("k"), (join) => join.onTrue())
          .selectAll("k") as never,
      params: { clientId: plan.clientId, tokenHash: plan.refreshTokenHash },
      decode: (reservedRow) => {
        const row = reservedRow as unknown as PrefixedClientRow & WithNulls<RefreshRow>;
        return row.cl_id === null ? undefined : this.withRefreshToken(row);
      },
    };
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
      post_logout_redirect_uri: row.cl_post_logout_redirect_uri,
      created_at: row.cl_created_at,
    });
  }
}
