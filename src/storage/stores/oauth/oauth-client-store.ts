import { type Selectable, sql, type Updateable } from "kysely";
import type { SecretSealer } from "../../../crypto/secret-box.js";
import type { ClientFields } from "../../../oauth/domain/client-rules.js";
import type { ClientStore, OAuthClient } from "../../../oauth/ports.js";
import type { Db } from "../../driver/database.js";
import { PreparedQuery, transaction } from "../../driver/prepared.js";
import type { OAuthClientsTable } from "../../schema/oauth.js";
import { endGrantsOutsideAllowedGroups } from "../../statements/access-rules.js";

type Logger = { info(obj: object, msg: string): void };

/** The columns a client is read with (named: prepared statements must not change with the table). */
export const CLIENT_COLUMNS = [
  "id",
  "name",
  "client_id",
  "secret_encrypted",
  "redirect_uri",
  "allow_subdomains",
  "trusted",
  "resource_server",
  "account_access",
  "post_logout_redirect_uri",
  "trusted_scopes",
  "created_at",
  "registered_at",
  "last_used_at",
  "backchannel_logout_uri",
] as const;

/** More clients than a server has; the memo of opened secrets is cleared past it. */
const OPENED_SECRETS_LIMIT = 10_000;

/**
 * Clients in oauth2_clients, secrets sealed with the data directory's key. ownCloud's default
 * clients are written on first use of the store (docs/upstream/owncloud-oauth2.md A.4): the migration lists their names in
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
  private readonly admitsQuery: PreparedQuery<{ id: number; uid: string }, { admitted: number | boolean }>;

  constructor(
    private readonly db: Db,
    private readonly box: SecretSealer,
    private readonly defaults: readonly ClientFields[],
    private readonly log: Logger,
  ) {
    this.byClientId = new PreparedQuery((slot) =>
      db.selectFrom("oauth2_clients").select(CLIENT_COLUMNS).where("client_id", "=", slot("clientId")),
    );
    // Every authorization asks: no allowed group at all, or a membership of one of them.
    this.admitsQuery = new PreparedQuery((slot) =>
      db.selectNoFrom(
        sql<number | boolean>`CASE WHEN NOT EXISTS (SELECT 1 FROM oauth2_client_groups WHERE client_id = ${slot("id")})
            OR EXISTS (SELECT 1 FROM oauth2_client_groups cg JOIN group_members m ON m.gid = cg.gid
              WHERE cg.client_id = ${slot("id")} AND m.uid = ${slot("uid")}) THEN 1 ELSE 0 END`.as("admitted"),
      ),
    );
  }

  /** Resolves once the default clients are seeded: before any read of a client (see the class). */
  seeded(): Promise<void> {
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
      account_access: fields.accountAccess ? 1 : 0,
      post_logout_redirect_uri: fields.postLogoutRedirectUri ?? null,
      trusted_scopes: fields.trustedScopes ?? null,
      created_at: now,
      registered_at: fields.registeredAt ?? null,
      last_used_at: null,
      backchannel_logout_uri: fields.backchannelLogoutUri ?? null,
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

  /** The client a row of CLIENT_COLUMNS holds, its secret opened. */
  toClient(row: Selectable<OAuthClientsTable>): OAuthClient {
    return {
      id: Number(row.id),
      name: row.name,
      clientId: row.client_id,
      secret: this.openSecret(row.secret_encrypted),
      redirectUri: row.redirect_uri,
      allowSubdomains: row.allow_subdomains === 1,
      trusted: row.trusted === 1,
      resourceServer: row.resource_server === 1,
      ...(row.account_access === 1 ? { accountAccess: true } : {}),
      ...(row.post_logout_redirect_uri === null ? {} : { postLogoutRedirectUri: row.post_logout_redirect_uri }),
      ...(row.trusted_scopes === null ? {} : { trustedScopes: row.trusted_scopes }),
      ...(row.registered_at === null ? {} : { registeredAt: Number(row.registered_at) }),
      ...(row.last_used_at === null ? {} : { lastUsedAt: Number(row.last_used_at) }),
      ...(row.backchannel_logout_uri === null ? {} : { backchannelLogoutUri: row.backchannel_logout_uri }),
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
    if (changes.accountAccess !== undefined) set.account_access = changes.accountAccess ? 1 : 0;
    if (changes.postLogoutRedirectUri !== undefined) set.post_logout_redirect_uri = changes.postLogoutRedirectUri;
    if (changes.trustedScopes !== undefined) set.trusted_scopes = changes.trustedScopes;
    if (changes.backchannelLogoutUri !== undefined) set.backchannel_logout_uri = changes.backchannelLogoutUri;
    try {
      await this.db.updateTable("oauth2_clients").set(set).where("id", "=", id).execute();
      return true;
    } catch (error) {
      if (await this.collides(changes.name, changes.clientId, id)) return false;
      throw error;
    }
  }

  async markUsed(id: number, now: number): Promise<void> {
    await this.db
      .updateTable("oauth2_clients")
      .set({ last_used_at: now })
      .where("id", "=", id)
      .where("registered_at", "is not", null)
      .execute();
  }

  async removeUnusedRegistered(cutoff: number): Promise<number> {
    const result = await this.db
      .deleteFrom("oauth2_clients")
      .where("registered_at", "is not", null)
      .where((eb) => eb(eb.fn.coalesce("last_used_at", "registered_at"), "<=", cutoff))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async remove(id: number): Promise<boolean> {
    await this.seeded();
    const result = await this.db.deleteFrom("oauth2_clients").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async allowedGroups(ids: readonly number[]): Promise<Map<number, string[]>> {
    const byClient = new Map<number, string[]>();
    if (ids.length === 0) return byClient;
    const rows = await this.db
      .selectFrom("oauth2_client_groups")
      .select(["client_id", "gid"])
      .where("client_id", "in", [...ids])
      .orderBy("client_id")
      .orderBy("gid")
      .execute();
    for (const row of rows) {
      const id = Number(row.client_id);
      byClient.set(id, [...(byClient.get(id) ?? []), row.gid]);
    }
    return byClient;
  }

  setAllowedGroups(id: number, gids: readonly string[]): Promise<number> {
    return transaction(this.db, async (trx) => {
      await trx.deleteFrom("oauth2_client_groups").where("client_id", "=", id).execute();
      if (gids.length > 0) {
        await trx
          .insertInto("oauth2_client_groups")
          .values(gids.map((gid) => ({ client_id: id, gid })))
          .execute();
      }
      return endGrantsOutsideAllowedGroups(trx, { clientId: id });
    });
  }

  async admits(id: number, uid: string): Promise<boolean> {
    const row = await this.admitsQuery.first(this.db, { id, uid });
    return Number(row?.admitted) === 1;
  }
}
