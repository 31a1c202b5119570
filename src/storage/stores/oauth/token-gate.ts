import type { Selectable } from "kysely";
import type { Clock } from "../../../clock.js";
import type {
  CodeRecord,
  OAuthClient,
  PendingSettlement,
  ReadAhead,
  ReadAheadPlan,
  RefreshTokenRecord,
  TokenGate,
  TokenGateReservation,
} from "../../../oauth/ports.js";
import {
  orderedBuckets,
  reservationDelayMs,
  retryAfterSeconds,
  type ThrottleBucket,
} from "../../../security/domain/throttle-policy.js";
import type { ReservedCounts } from "../../../security/ports.js";
import type { Db, DbOrTx, Dialect } from "../../driver/database.js";
import { PreparedQuery } from "../../driver/prepared.js";
import type { OAuthClientsTable } from "../../schema/oauth.js";
import {
  countsOf,
  type ReservedRow,
  successResettingOneBucket,
  type ThrottleStatements,
  toSlots,
} from "../../statements/throttle.js";
import { CLIENT_COLUMNS, type KyselyClientStore } from "./oauth-client-store.js";
import {
  type CodeRow,
  codeRecordOf,
  type RefreshRow,
  refreshRecordOf,
  selectCode,
  selectRefreshToken,
} from "./oauth-grant-statements.js";

/** The client's columns, prefixed (`cl_id` …): the code's and the token's rows have a `client_id` of their own. */
type PrefixedClientRow = { [K in (typeof CLIENT_COLUMNS)[number] as `cl_${K}`]: Selectable<OAuthClientsTable>[K] };
/** A row of the client, with the presented artefact's columns, all null when there is no such artefact. */
type WithNulls<T> = { [K in keyof T]: T[K] | null };

/** A row of the reservation (the CTE `reserved`) with the client and the presented artefact. */
type ReservedWith<T> = ReservedRow & WithNulls<PrefixedClientRow> & WithNulls<T>;

/** What the read found: the client, with the code or refresh token when one was looked at. */
type Found = { client: OAuthClient; code?: CodeRecord | undefined; refreshToken?: RefreshTokenRecord | undefined } | undefined;

/**
 * The token endpoint's gate (TokenGate) over the table `throttle` with the token throttle's policy
 * (statements/throttle.ts has the reservation and settlement statements). Its read is the client the
 * request names with the code or refresh token it presents, each read by the same query as
 * ClientStore.findByClientId and GrantStore.findCode / findRefreshToken (the presented one as a
 * subquery left-joined to the client: absent, its columns are null). On PostgreSQL the reservation
 * is that statement's data-modifying CTE: one round trip for both. A code redemption or refresh
 * rotation commits its settlement inside its own write (IssueSettlement, below).
 */
export class SqlTokenGate implements TokenGate {
  private readonly clientWithCodeStatement: PreparedQuery<
    { clientId: string; codeHash: string },
    PrefixedClientRow & WithNulls<CodeRow>
  >;
  private readonly clientWithRefreshTokenStatement: PreparedQuery<
    { clientId: string; tokenHash: string },
    PrefixedClientRow & WithNulls<RefreshRow>
  >;

  /** The reservation with the read on PostgreSQL, per artefact and kind of bucket. */
  private readonly reserving = new Map<
    string,
    PreparedQuery<Record<string, string | number>, ReservedWith<CodeRow | RefreshRow>>
  >();

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly clients: KyselyClientStore,
    /** The token endpoint's throttle (its policy is part of the reservation statement). */
    private readonly throttle: ThrottleStatements,
    private readonly clock: Clock,
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

  /**
   * PostgreSQL, one bucket and a plan: the reservation as the CTE `reserved` (committed by its
   * statement before anything is checked, as ThrottleStore.reserve), the client and the artefact
   * selected from it, so a refused attempt returns no row and reads nothing. Otherwise (SQLite has
   * no data-modifying CTEs, and no round trips to save) each bucket's reservation, then the read.
   */
  async reserve(buckets: ThrottleBucket[], plan: ReadAheadPlan | undefined): Promise<TokenGateReservation> {
    const now = this.clock.nowSeconds();
    const [only, ...more] = buckets;
    if (plan && only && more.length === 0 && this.dialect === "postgres") return this.reserveAndRead(only, now, plan);
    const reserved: string[] = [];
    let delayMs = 0;
    for (const bucket of orderedBuckets(buckets)) {
      const counts = await this.throttle.reserve(bucket, now);
      if (counts === undefined) {
        if (reserved.length > 0) await this.throttle.settle(reserved, { kind: "release" }, now);
        return this.refused(bucket, now);
      }
      reserved.push(bucket.key);
      delayMs = Math.max(delayMs, reservationDelayMs(bucket, counts, this.throttle.policy));
    }
    return { admitted: true, delayMs, readAhead: plan && (await this.read(plan)) };
  }

  async read(plan: ReadAheadPlan): Promise<ReadAhead> {
    const found =
      "codeHash" in plan
        ? await this.clientWithCode(plan.clientId, plan.codeHash)
        : await this.clientWithRefreshToken(plan.clientId, plan.refreshTokenHash);
    return readAheadOf(plan, found);
  }

  settle(pending: PendingSettlement): Promise<void> {
    return this.throttle.settle(pending.keys, pending.settlement, pending.now);
  }

  private async clientWithCode(
    clientId: string,
    codeHash: string,
  ): Promise<{ client: OAuthClient; code: CodeRecord | undefined } | undefined> {
    await this.clients.seeded();
    const row = await this.clientWithCodeStatement.first(this.db, { clientId, codeHash });
    return row ? this.withCode(row) : undefined;
  }

  private async clientWithRefreshToken(
    clientId: string,
    tokenHash: string,
  ): Promise<{ client: OAuthClient; refreshToken: RefreshTokenRecord | undefined } | undefined> {
    await this.clients.seeded();
    const row = await this.clientWithRefreshTokenStatement.first(this.db, { clientId, tokenHash });
    return row ? this.withRefreshToken(row) : undefined;
  }

  private async reserveAndRead(bucket: ThrottleBucket, now: number, plan: ReadAheadPlan): Promise<TokenGateReservation> {
    await this.clients.seeded();
    const withCode = "codeHash" in plan;
    const statement = this.reservingStatement(bucket, withCode);
    const row = await statement.first(this.db, {
      ...this.throttle.reservationParams(bucket, now),
      clientId: plan.clientId,
      ...("codeHash" in plan ? { codeHash: plan.codeHash } : { tokenHash: plan.refreshTokenHash }),
    });
    if (!row) return this.refused(bucket, now);
    const counts: ReservedCounts = countsOf(row);
    let found: Found;
    if (row.cl_id !== null) {
      found = withCode
        ? this.withCode(row as unknown as PrefixedClientRow & WithNulls<CodeRow>)
        : this.withRefreshToken(row as unknown as PrefixedClientRow & WithNulls<RefreshRow>);
    }
    return {
      admitted: true,
      delayMs: reservationDelayMs(bucket, counts, this.throttle.policy),
      readAhead: readAheadOf(plan, found),
    };
  }

  private async refused(bucket: ThrottleBucket, now: number): Promise<TokenGateReservation> {
    const row = await this.throttle.row(bucket.key);
    return { admitted: false, retryAfterSeconds: retryAfterSeconds(row, this.throttle.policy, now) };
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
      backchannel_logout_uri: row.cl_backchannel_logout_uri,
    });
  }
}

/**
 * The token gate's settlement of a success, committed by the write that issues the tokens (the
 * code redemption or refresh rotation of KyselyGrantStore): the same statements as the gate's.
 */
export class IssueSettlement {
  constructor(private readonly throttle: ThrottleStatements) {}

  /** The settlement inside the write's transaction. */
  within(trx: DbOrTx, pending: PendingSettlement): Promise<void> {
    return this.throttle.settleOn(trx, pending.keys, pending.settlement, pending.now);
  }

  /**
   * The one bucket's key when the settlement is a success resetting it, which a one-statement
   * issue folds into itself (oauth-postgres-one-statement.ts); otherwise undefined.
   */
  foldedBucket(pending: PendingSettlement | undefined): string | undefined {
    return pending && successResettingOneBucket(pending.keys, pending.settlement);
  }
}

/** What the read found for a plan, as the token endpoint takes it. */
function readAheadOf(plan: ReadAheadPlan, found: Found): ReadAhead {
  const ahead: ReadAhead = { clientId: plan.clientId, client: found?.client };
  if (!found) return ahead;
  if ("codeHash" in plan) ahead.code = { hash: plan.codeHash, record: found.code };
  else ahead.refreshToken = { hash: plan.refreshTokenHash, record: found.refreshToken };
  return ahead;
}
