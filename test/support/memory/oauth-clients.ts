import type { ClientFields } from "../../../src/oauth/domain/client-rules.js";
import type { ClientStore, OAuthClient } from "../../../src/oauth/ports.js";
import type { MemoryTables } from "./tables.js";

interface ClientRow {
  id: number;
  fields: ClientFields;
  createdAt: number;
  lastUsedAt: number | null;
}

/** The client a row holds, as the SQL store reads it back: optional fields absent, not null. */
function clientOf(row: ClientRow): OAuthClient {
  const f = row.fields;
  return {
    id: row.id,
    name: f.name,
    clientId: f.clientId,
    secret: f.secret,
    redirectUri: f.redirectUri,
    allowSubdomains: f.allowSubdomains,
    trusted: f.trusted,
    resourceServer: f.resourceServer,
    ...(f.accountAccess ? { accountAccess: true } : {}),
    ...(f.postLogoutRedirectUri == null ? {} : { postLogoutRedirectUri: f.postLogoutRedirectUri }),
    ...(f.trustedScopes == null ? {} : { trustedScopes: f.trustedScopes }),
    ...(f.registeredAt === undefined ? {} : { registeredAt: f.registeredAt }),
    ...(row.lastUsedAt === null ? {} : { lastUsedAt: row.lastUsedAt }),
    ...(f.backchannelLogoutUri == null ? {} : { backchannelLogoutUri: f.backchannelLogoutUri }),
  };
}

/**
 * oauth/ports.ts ClientStore in memory (src/storage/stores/oauth/oauth-client-store.ts is the SQL one), with the
 * default clients seeded at the start. Grants are not kept here: setAllowedGroups ends none.
 */
export class MemoryClientStore implements ClientStore {
  private readonly rows = new Map<number, ClientRow>();

  constructor(
    private readonly tables: MemoryTables,
    defaults: readonly ClientFields[] = [],
  ) {
    for (const fields of defaults) this.add(fields, 0);
  }

  async list(): Promise<OAuthClient[]> {
    return [...this.rows.values()].sort((a, b) => a.id - b.id).map(clientOf);
  }

  async findById(id: number): Promise<OAuthClient | undefined> {
    const row = this.rows.get(id);
    return row && clientOf(row);
  }

  async findByClientId(clientId: string): Promise<OAuthClient | undefined> {
    const row = [...this.rows.values()].find((r) => r.fields.clientId === clientId);
    return row && clientOf(row);
  }

  async findByName(name: string): Promise<OAuthClient | undefined> {
    const row = [...this.rows.values()].find((r) => r.fields.name === name);
    return row && clientOf(row);
  }

  async insert(fields: ClientFields, now: number): Promise<OAuthClient | undefined> {
    if (this.collides(fields.name, fields.clientId)) return undefined;
    return { ...fields, id: this.add(fields, now) };
  }

  async update(id: number, changes: Partial<ClientFields>): Promise<boolean> {
    if (this.collides(changes.name, changes.clientId, id)) return false;
    const row = this.rows.get(id);
    if (!row) return true;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    row.fields = { ...row.fields, ...defined };
    this.tables.clientNames.set(id, row.fields.name);
    return true;
  }

  async remove(id: number): Promise<boolean> {
    this.tables.clientNames.delete(id);
    this.tables.clientGroups.delete(id);
    return this.rows.delete(id);
  }

  async markUsed(id: number, now: number): Promise<void> {
    const row = this.rows.get(id);
    if (row?.fields.registeredAt !== undefined) row.lastUsedAt = now;
  }

  async removeUnusedRegistered(cutoff: number): Promise<number> {
    let removed = 0;
    for (const row of [...this.rows.values()]) {
      const registeredAt = row.fields.registeredAt;
      if (registeredAt !== undefined && (row.lastUsedAt ?? registeredAt) <= cutoff && (await this.remove(row.id))) removed++;
    }
    return removed;
  }

  async allowedGroups(ids: readonly number[]): Promise<Map<number, string[]>> {
    const byClient = new Map<number, string[]>();
    for (const id of [...ids].sort((a, b) => a - b)) {
      const gids = this.tables.clientGroups.get(id);
      if (gids && gids.size > 0) byClient.set(id, [...gids].sort());
    }
    return byClient;
  }

  async setAllowedGroups(id: number, gids: readonly string[]): Promise<number> {
    if (!this.rows.has(id)) throw new Error(`foreign key: no client ${id}`);
    const unknown = gids.filter((gid) => !this.tables.groups.has(gid));
    if (unknown.length > 0) throw new Error(`foreign key: no group ${unknown.join(", ")}`);
    if (gids.length === 0) this.tables.clientGroups.delete(id);
    else this.tables.clientGroups.set(id, new Set(gids));
    return 0;
  }

  async admits(id: number, uid: string): Promise<boolean> {
    const gids = this.tables.clientGroups.get(id);
    if (!gids || gids.size === 0) return true;
    return [...gids].some((gid) => this.tables.members.get(gid)?.has(uid) ?? false);
  }

  /** Stores `client` under its own id, as a fixture does (test/oauth/unit/fakes.ts). */
  keep(client: OAuthClient): void {
    const { id, lastUsedAt, ...fields } = client;
    this.rows.set(id, { id, fields, createdAt: 0, lastUsedAt: lastUsedAt ?? null });
    this.tables.clientNames.set(id, fields.name);
  }

  private add(fields: ClientFields, now: number): number {
    const id = this.tables.id();
    this.rows.set(id, { id, fields: { ...fields }, createdAt: now, lastUsedAt: null });
    this.tables.clientNames.set(id, fields.name);
    return id;
  }

  private collides(name: string | undefined, clientId: string | undefined, exceptId?: number): boolean {
    return [...this.rows.values()].some(
      (row) =>
        row.id !== exceptId &&
        ((name !== undefined && row.fields.name === name) || (clientId !== undefined && row.fields.clientId === clientId)),
    );
  }
}
