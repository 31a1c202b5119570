import { type AuditTrail, NO_AUDIT } from "../audit/recorder.js";
import { randomAlphanumeric } from "../crypto/secrets.js";
import { inEnglish } from "../i18n/index.js";
import { type Refusal, type Result, refused, succeeded } from "../refusal.js";
import {
  type ClientFields,
  type ClientProblem,
  clientProblem,
  fieldProblem,
  GENERATED_CREDENTIAL_LENGTH,
  isModifiableKey,
  MODIFIABLE_KEYS,
  type ModifiableKey,
  type NewClientArguments,
  normalizedTrustedScopes,
  parseLenientBoolean,
  parseStrictBoolean,
  redirectUriProblemOf,
  trustedScopesField,
  trustRefused,
  validateNewClient,
} from "./domain/client-rules.js";
import type { ClientStore, GroupLists, OAuthClient } from "./ports.js";

/**
 * An operator action's outcome: the value, or its refusal, coded by the sentence that says what was
 * wrong (its catalogue name): the phrase for a page to say in its reader's language, in English
 * what occ prints (ownCloud's wording, docs/upstream/owncloud-oauth2.md A.5, A.8).
 */
export type AdminResult<T> = Result<T>;

function refusedAs(problem: ClientProblem, message?: string): Refusal {
  return refused(problem.key.slice(problem.key.indexOf(":") + 1), problem, message === undefined ? {} : { message });
}

interface Logger {
  info(obj: object, msg: string): void;
}

/**
 * Who may use a client: its allowed groups (docs/oauth2.md "Who may use an application"). Without
 * groups (a store used alone, in tests of other rules) every list but the empty one is refused.
 */
export interface ClientAccessOptions {
  groups?: GroupLists | undefined;
  /** Host setting `oauth2.new_clients_allowed_groups`: the list a new client starts with ("" everyone). */
  newClientsAllowedGroups?: (() => string) | undefined;
}

/** The key of `oauth2:modify-client` that sets the allowed groups (a comma-separated list, "" everyone). */
export const ALLOWED_GROUPS_KEY = "allowed-groups";

/** Adding, changing and removing clients, for `occ oauth2:*` and the admin page alike. */
export class ClientAdministration {
  constructor(
    private readonly clients: ClientStore,
    private readonly now: () => number,
    private readonly log: Logger,
    private readonly access: ClientAccessOptions = {},
    private readonly audit: AuditTrail = NO_AUDIT,
  ) {}

  private recorded(
    kind: "client.added" | "client.modified" | "client.deleted" | "client.secret_regenerated",
    client: OAuthClient,
    detail?: Record<string, unknown>,
  ): void {
    this.audit.record(kind, { subject: { type: "client", id: client.clientId }, detail: { name: client.name, ...detail } });
  }

  list(): Promise<OAuthClient[]> {
    return this.clients.list();
  }

  /** The allowed groups of each client, by internal id; a client everyone may use is absent. */
  allowedGroups(clients: readonly OAuthClient[]): Promise<Map<number, string[]>> {
    return this.clients.allowedGroups(clients.map((c) => c.id));
  }

  /**
   * An allowed-groups list as written (comma-separated), resolved to existing groups; undefined
   * (absent) means the host setting `oauth2.new_clients_allowed_groups`, which a new client starts with.
   */
  async resolveAllowedGroups(text: string | undefined): Promise<AdminResult<string[]>> {
    const given = text ?? this.access.newClientsAllowedGroups?.() ?? "";
    if (given.trim() === "") return succeeded([]);
    const resolved = this.access.groups
      ? await this.access.groups.resolve(given)
      : { problem: clientProblem("invalidKey", { key: ALLOWED_GROUPS_KEY }) };
    if ("problem" in resolved) {
      const problem = resolved.problem;
      return refusedAs(problem, text === undefined ? `oauth2.new_clients_allowed_groups: ${inEnglish(problem)}` : undefined);
    }
    return succeeded(resolved.gids);
  }

  /**
   * Sets the client's allowed groups ("" everyone). Whoever is in none of them loses their grants
   * at this client at once (ClientStore.setAllowedGroups).
   */
  async setAllowedGroups(client: OAuthClient, text: string): Promise<AdminResult<OAuthClient>> {
    const gids = await this.resolveAllowedGroups(text);
    if (!gids.ok) return gids;
    const ended = await this.clients.setAllowedGroups(client.id, gids.value);
    this.log.info(
      {
        event: "oauth2_client_allowed_groups",
        client: client.clientId,
        name: client.name,
        groups: gids.value,
        grantsEnded: ended,
      },
      `The allowed groups of the client "${client.name}" have been changed.`,
    );
    return succeeded(client);
  }

  /**
   * `oauth2:add-client` (docs/upstream/owncloud-oauth2.md A.5): value checks, name, identifier, then the
   * localhost trust rule.
   */
  async add(input: NewClientArguments & { allowedGroups?: string | undefined }): Promise<AdminResult<OAuthClient>> {
    const validated = validateNewClient(input);
    if ("problem" in validated) return refusedAs(validated.problem);
    const allowedGroups = await this.resolveAllowedGroups(input.allowedGroups);
    if (!allowedGroups.ok) return allowedGroups;
    const { fields } = validated;
    if (await this.clients.findByName(fields.name)) return refusedAs(clientProblem("nameTaken", { name: fields.name }));
    if (await this.clients.findByClientId(fields.clientId))
      return refusedAs(clientProblem("clientIdTaken", { id: fields.clientId }));
    if (trustRefused(fields.redirectUri, fields.trusted, parseLenientBoolean(input.forceTrust))) {
      return refusedAs(clientProblem("localhostTrusted"));
    }
    return this.insert(fields, allowedGroups.value);
  }

  /**
   * The admin page's form (docs/upstream/owncloud-oauth2.md A.8): trimmed name and URI, generated
   * 64-character id and secret.
   */
  async addFromAdminPage(input: {
    name: string;
    redirectUri: string;
    allowSubdomains: boolean;
    trusted: boolean;
    resourceServer: boolean;
    accountAccess?: boolean;
    /** Empty: none (OpenID Connect RP-initiated logout). */
    postLogoutRedirectUri?: string;
    /** Empty: a trusted client skips consent for every scope. */
    trustedScopes?: string;
    /** Empty: none (OpenID Connect back-channel logout). */
    backchannelLogoutUri?: string;
    /** Comma-separated; empty: everyone; absent: the host setting `oauth2.new_clients_allowed_groups`. */
    allowedGroups?: string | undefined;
  }): Promise<AdminResult<OAuthClient>> {
    const name = input.name.trim();
    const redirectUri = input.redirectUri.trim();
    if (name === "") return refusedAs(clientProblem("emptyName"));
    const nameProblem = fieldProblem("name", name);
    if (nameProblem) return refusedAs(nameProblem);
    if (redirectUri === "") return refusedAs(clientProblem("emptyRedirect"));
    const redirectProblem = redirectUriProblemOf(redirectUri, clientProblem("invalidRedirectUrl"));
    if (redirectProblem) return refusedAs(redirectProblem);
    const postLogoutRedirectUri = (input.postLogoutRedirectUri ?? "").trim();
    const postLogoutProblem = fieldProblem("post-logout-redirect-url", postLogoutRedirectUri);
    if (postLogoutProblem) return refusedAs(postLogoutProblem);
    const backchannelLogoutUri = (input.backchannelLogoutUri ?? "").trim();
    const backchannelProblem = fieldProblem("backchannel-logout-url", backchannelLogoutUri);
    if (backchannelProblem) return refusedAs(backchannelProblem);
    const trustedScopes = input.trustedScopes ?? "";
    const trustedScopesProblem = fieldProblem("trusted-scopes", trustedScopes);
    if (trustedScopesProblem) return refusedAs(trustedScopesProblem);
    const allowedGroups = await this.resolveAllowedGroups(input.allowedGroups);
    if (!allowedGroups.ok) return allowedGroups;
    if (await this.clients.findByName(name)) return refusedAs(clientProblem("nameExists", { name }));
    if (trustRefused(redirectUri, input.trusted, false)) return refusedAs(clientProblem("localhostTrusted"));
    return this.insert(
      {
        name,
        redirectUri,
        clientId: randomAlphanumeric(GENERATED_CREDENTIAL_LENGTH),
        secret: randomAlphanumeric(GENERATED_CREDENTIAL_LENGTH),
        allowSubdomains: input.allowSubdomains,
        trusted: input.trusted,
        resourceServer: input.resourceServer,
        ...(input.accountAccess ? { accountAccess: true } : {}),
        ...(postLogoutRedirectUri === "" ? {} : { postLogoutRedirectUri }),
        ...trustedScopesField(trustedScopes),
        ...(backchannelLogoutUri === "" ? {} : { backchannelLogoutUri }),
      },
      allowedGroups.value,
    );
  }

  private async insert(fields: ClientFields, allowedGroups: readonly string[]): Promise<AdminResult<OAuthClient>> {
    const client = await this.clients.insert(fields, this.now());
    if (!client) return refusedAs(clientProblem("nameTaken", { name: fields.name }));
    if (allowedGroups.length > 0) await this.clients.setAllowedGroups(client.id, allowedGroups);
    this.log.info(
      { event: "oauth2_client_added", client: client.clientId, name: client.name, resourceServer: client.resourceServer },
      `The client "${client.name}" has been added.`,
    );
    this.recorded("client.added", client);
    return succeeded(client);
  }

  /**
   * `oauth2:modify-client` (docs/upstream/owncloud-oauth2.md A.5 order). Stricter than ownCloud:
   * trusting a localhost client, or moving a trusted client to localhost, needs force-trust here
   * too, so add-client's localhost trust rule cannot be sidestepped by a modify-client after it.
   */
  async modify(name: string, key: string, value: string, forceTrust = false): Promise<AdminResult<OAuthClient>> {
    const result = await this.modifyOne(name, key, value, forceTrust);
    if (result.ok) this.recorded("client.modified", result.value, { fields: [key] });
    return result;
  }

  private async modifyOne(name: string, key: string, value: string, forceTrust: boolean): Promise<AdminResult<OAuthClient>> {
    const client = await this.clients.findByName(name);
    if (!client) return refusedAs(clientProblem("noSuchName", { name }));
    if (key === ALLOWED_GROUPS_KEY) return this.setAllowedGroups(client, value);
    if (!isModifiableKey(key)) return refusedAs(clientProblem("invalidKey", { key }));
    const problem = fieldProblem(key, value);
    if (problem) return refusedAs(problem);
    const changes: Partial<ClientFields> = {};
    switch (key) {
      case "name":
        if (await this.clients.findByName(value)) return refusedAs(clientProblem("nameTaken", { name: value }));
        changes.name = value;
        break;
      case "client-id":
        if (await this.clients.findByClientId(value)) return refusedAs(clientProblem("clientIdTaken", { id: value }));
        changes.clientId = value;
        break;
      case "client-secret":
        changes.secret = value;
        break;
      case "redirect-url":
        changes.redirectUri = value;
        break;
      case "allow-sub-domains":
        changes.allowSubdomains = parseStrictBoolean(value) as boolean;
        break;
      case "trusted":
        changes.trusted = parseStrictBoolean(value) as boolean;
        break;
      case "resource-server":
        changes.resourceServer = parseStrictBoolean(value) as boolean;
        break;
      case "account-access":
        changes.accountAccess = parseStrictBoolean(value) as boolean;
        break;
      case "post-logout-redirect-url":
        changes.postLogoutRedirectUri = value === "" ? null : value;
        break;
      case "trusted-scopes":
        changes.trustedScopes = normalizedTrustedScopes(value);
        break;
      case "backchannel-logout-url":
        changes.backchannelLogoutUri = value === "" ? null : value;
        break;
    }
    const next = { ...client, ...changes };
    if (trustRefused(next.redirectUri, next.trusted, forceTrust)) return refusedAs(clientProblem("localhostTrusted"));
    if (!(await this.clients.update(client.id, changes))) {
      return refusedAs(
        key === "name" ? clientProblem("nameTaken", { name: value }) : clientProblem("clientIdTaken", { id: value }),
      );
    }
    this.log.info(
      { event: "oauth2_client_modified", client: next.clientId, name: next.name, key },
      `The client "${next.name}" has been modified.`,
    );
    return succeeded(next);
  }

  /** The value `oauth2:modify-client` would take to leave a field as it is. */
  private static currentValue(client: OAuthClient, key: ModifiableKey): string {
    switch (key) {
      case "name":
        return client.name;
      case "client-id":
        return client.clientId;
      case "client-secret":
        return client.secret;
      case "redirect-url":
        return client.redirectUri;
      case "allow-sub-domains":
        return String(client.allowSubdomains);
      case "trusted":
        return String(client.trusted);
      case "resource-server":
        return String(client.resourceServer);
      case "account-access":
        return String(client.accountAccess === true);
      case "post-logout-redirect-url":
        return client.postLogoutRedirectUri ?? "";
      case "trusted-scopes":
        return client.trustedScopes ?? "";
      case "backchannel-logout-url":
        return client.backchannelLogoutUri ?? "";
    }
  }

  /**
   * The admin page's edit form: each changed field through `modify`, the very checks of
   * `oauth2:modify-client`, the name last (modify finds the client by name). Stops at the first
   * refusal; the fields before it stay changed, as the same occ commands run one by one would.
   */
  async modifyById(
    id: number,
    values: Partial<Record<ModifiableKey | typeof ALLOWED_GROUPS_KEY, string>>,
    forceTrust = false,
  ): Promise<AdminResult<OAuthClient>> {
    let client = await this.clients.findById(id);
    if (!client) return refusedAs(clientProblem("noSuchClient"));
    const changed: string[] = [];
    const allowed = values[ALLOWED_GROUPS_KEY];
    if (allowed !== undefined) {
      const current = (await this.clients.allowedGroups([id])).get(id) ?? [];
      const wanted = await this.resolveAllowedGroups(allowed);
      if (!wanted.ok) return wanted;
      if ([...wanted.value].sort().join(",") !== current.join(",")) {
        const result = await this.setAllowedGroups(client, allowed);
        if (!result.ok) return result;
        changed.push(ALLOWED_GROUPS_KEY);
      }
    }
    const order = [...MODIFIABLE_KEYS.filter((k) => k !== "name"), "name" as const];
    let outcome: AdminResult<OAuthClient> = { ok: true, value: client };
    for (const key of order) {
      const value = values[key];
      if (value === undefined || value === ClientAdministration.currentValue(client, key)) continue;
      const result = await this.modifyOne(client.name, key, value, forceTrust);
      if (!result.ok) {
        outcome = result;
        break;
      }
      client = result.value;
      changed.push(key);
    }
    // One event for the form, naming the fields it changed (those before a refusal stay changed).
    if (changed.length > 0) this.recorded("client.modified", client, { fields: changed });
    return outcome;
  }

  /** A new generated secret for a client (the old one stops working at once), through `modify`. */
  async regenerateSecret(id: number): Promise<AdminResult<OAuthClient>> {
    const client = await this.clients.findById(id);
    if (!client) return refusedAs(clientProblem("noSuchClient"));
    const result = await this.modifyOne(client.name, "client-secret", randomAlphanumeric(GENERATED_CREDENTIAL_LENGTH), false);
    if (result.ok) this.recorded("client.secret_regenerated", result.value);
    return result;
  }

  /** One client by its internal id (the admin page's "show secret"). */
  findById(id: number): Promise<OAuthClient | undefined> {
    return this.clients.findById(id);
  }

  /** `oauth2:remove-client`: the client and (stricter than ownCloud) all its codes and tokens at once. */
  async removeByClientId(clientId: string): Promise<AdminResult<OAuthClient>> {
    const client = await this.clients.findByClientId(clientId);
    if (!client) return refusedAs(clientProblem("unknownClientId", { id: clientId }));
    return this.remove(client);
  }

  /** The admin page's delete button (internal id). */
  async removeById(id: number): Promise<AdminResult<OAuthClient>> {
    const client = await this.clients.findById(id);
    if (!client) return refusedAs(clientProblem("noSuchClient"));
    return this.remove(client);
  }

  private async remove(client: OAuthClient): Promise<AdminResult<OAuthClient>> {
    if (!(await this.clients.remove(client.id))) return refusedAs(clientProblem("unknownClientId", { id: client.clientId }));
    this.log.info(
      { event: "oauth2_client_deleted", client: client.clientId, name: client.name },
      `The client "${client.name}" has been deleted.`,
    );
    this.recorded("client.deleted", client);
    return succeeded(client);
  }
}
