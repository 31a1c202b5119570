import type { BearerTokenResolver } from "../accounts/authentication.js";
import type { User } from "../accounts/ports.js";
import type { AuditTrail } from "../audit/recorder.js";
import type { Clock } from "../clock.js";
import type { SecretSealer } from "../crypto/secret-box.js";
import { sha256Hex } from "../crypto/secrets.js";
import type { ReserveWithRead } from "../security/throttle.js";
import type { AuthorizationResponse } from "./authorization-response.js";
import {
  type AuthorizationCheck,
  type AuthorizationQuery,
  type AuthorizationRequest,
  checkAuthorizationRequest,
  issueForRequest,
} from "./authorize.js";
import { cleanupExpired, removeUnusedRegisteredClients } from "./cleanup.js";
import { ClientAdministration } from "./client-administration.js";
import { DeviceAuthorizations } from "./device-authorization.js";
import type { OAuthError } from "./domain/errors.js";
import { isExpired } from "./domain/lifetimes.js";
import type { RegistrationError } from "./domain/registration.js";
import { consentCovers, scopeValues } from "./domain/scope.js";
import type { GrantDeps, GrantResult } from "./grants/types.js";
import { type IntrospectionResponse, introspectToken } from "./introspection.js";
import type {
  AuthorizedClient,
  CleanupCounts,
  CleanupProgress,
  ClientStore,
  DeviceAuthorizationStore,
  GrantStore,
  GroupLists,
  IdTokenMinter,
  OAuthClient,
  ReadAhead,
  TokenLookups,
} from "./ports.js";
import { readAheadOf, readAheadPlan } from "./read-ahead.js";
import { markRegisteredClientUsed, type RegistrationResponse, registerClient } from "./registration.js";
import { revokeToken } from "./revocation.js";
import { handleTokenRequest, type TokenRequest } from "./token-endpoint.js";
import type { EventLog, TokenAdmission } from "./token-request.js";
import { TOKEN_LENGTH } from "./tokens.js";

/**
 * What the OAuth service tells the rest of Keystream (the activity stream listens). Called after the
 * fact; a failing listener is logged and never undoes or fails the OAuth operation.
 */
export interface OAuthEvents {
  /** A user authorized a client: consent given or trusted skip, once per new grant. */
  clientAuthorized(uid: string, client: { id: string; name: string }): Promise<void>;
  /** A user revoked a client: from personal settings, or by signing out every application at a password change. */
  clientRevoked(uid: string, client: { id: string; name: string }): Promise<void>;
}

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface OAuthServiceOptions {
  clients: ClientStore;
  grants: GrantStore;
  /** Device authorizations (RFC 8628): the device authorization endpoint, the verification page, the device code grant. */
  devices: DeviceAuthorizationStore;
  /** The token endpoint's client with its code (or refresh token), in one read, with the throttle's reservation. */
  lookups: TokenLookups;
  users: { find(uid: string): Promise<{ enabled: boolean } | undefined> };
  clock: Clock;
  log: Logger;
  /** Seconds a refresh token lives from each rotation (host setting `oauth2.refresh_token_lifetime`). */
  refreshTokenLifetime: () => number;
  /** Seconds a rotated refresh token still gets its rotation's pair (host setting `oauth2.refresh_reuse_grace`). */
  refreshReuseGrace: () => number;
  /** Seals the grace-window pair (the client-secret box). */
  sealer: SecretSealer;
  /** Told of grants authorized and revoked (the audit log, the activity stream, notifications). */
  events?: OAuthEvents | undefined;
  /** OpenID Connect's ID tokens (src/oidc); without it no ID token is issued. */
  idTokens?: IdTokenMinter | undefined;
  /** The audit log: client administration, grants authorized and revoked, refresh-token reuse. */
  audit?: AuditTrail | undefined;
  /** Resolves allowed-groups lists (src/groups); without it no client can be given allowed groups. */
  groups?: GroupLists | undefined;
  /** Host setting `oauth2.new_clients_allowed_groups`: what a new client's allowed groups start as. */
  newClientsAllowedGroups?: (() => string) | undefined;
}

/** The OAuth 2.0 authorization service (no HTTP here; routes in src/http/routes/oauth-*.ts call it). */
export class OAuthService implements BearerTokenResolver {
  readonly clients: ClientAdministration;
  /** RFC 8628: the device authorization endpoint's and the verification page's side of the device grant. */
  readonly devices: DeviceAuthorizations;
  private readonly store: ClientStore;
  private readonly grants: GrantStore;
  private readonly events: OAuthEvents | undefined;
  private readonly idTokens: IdTokenMinter | undefined;

  constructor(private readonly options: OAuthServiceOptions) {
    this.events = options.events;
    this.idTokens = options.idTokens;
    this.store = options.clients;
    this.grants = options.grants;
    this.clients = new ClientAdministration(
      options.clients,
      () => options.clock.nowSeconds(),
      options.log,
      { groups: options.groups, newClientsAllowedGroups: options.newClientsAllowedGroups },
      options.audit,
    );
    this.devices = new DeviceAuthorizations({
      clients: options.clients,
      store: options.devices,
      clock: options.clock,
      log: options.log,
      authorized: (uid, client) => this.notify("clientAuthorized", uid, client),
    });
  }

  /**
   * docs/upstream/owncloud-oauth2.md A.2.2; `currentUid` enables the switch-user rule (GET only, as ownCloud). `issuer`
   * (RFC 9207) goes into every redirect the request leads to.
   */
  checkAuthorization(
    query: AuthorizationQuery,
    issuer: string,
    currentUid?: string,
    /** The user the request would be granted to: refused unless the client admits them (its allowed groups). */
    grantee: string | undefined = currentUid,
  ): Promise<AuthorizationCheck> {
    return checkAuthorizationRequest(this.store, query, {
      issuer,
      currentUid,
      userExists: async (uid) => (await this.options.users.find(uid)) !== undefined,
      ...(grantee === undefined ? {} : { admitted: (client: OAuthClient) => this.admits(client, grantee) }),
    });
  }

  /** Whether the client admits the user (its allowed groups, docs/oauth2.md): asked before any grant is written. */
  async admits(client: OAuthClient, uid: string): Promise<boolean> {
    const admitted = await this.store.admits(client.id, uid);
    if (!admitted) {
      this.options.audit?.record("oauth.refused_by_group", {
        uid,
        subject: { type: "client", id: client.clientId },
        detail: { name: client.name },
      });
    }
    return admitted;
  }

  /**
   * Records a new grant with its code (or implicit token) and returns the authorization response. The grant
   * keeps the request's scope and nonce and when the user logged in (`authTime`, from the session),
   * for the ID tokens and UserInfo of OpenID Connect, and the session it was granted in
   * (`sessionIdHash`, for back-channel logout).
   */
  async authorize(
    request: AuthorizationRequest,
    uid: string,
    authTime: number | null,
    sessionIdHash: string | null = null,
  ): Promise<AuthorizationResponse> {
    const now = this.options.clock.nowSeconds();
    const { response, first } = issueForRequest(request, now);
    const identity = { scope: request.scope ?? null, authTime, nonce: request.openid?.nonce ?? null, sessionIdHash };
    const grantId = await this.grants.createGrant({ clientInternalId: request.client.id, uid, now, identity }, first);
    this.options.log.info(
      {
        event: "code" in first ? "oauth2_code_issued" : "oauth2_token_issued",
        client: request.client.clientId,
        uid,
        grant: grantId,
      },
      `An authorization code has been issued for the client "${request.client.name}".`,
    );
    await markRegisteredClientUsed(this.store, request.client, now);
    await this.notify("clientAuthorized", uid, request.client);
    return response;
  }

  /** RFC 7591 §3.1 dynamic registration (the HTTP layer checks that the host setting allows it). */
  async register(metadata: unknown): Promise<RegistrationResponse | RegistrationError> {
    // A registered client starts with the allowed groups of a new client, as an added one does.
    const allowed = await this.clients.resolveAllowedGroups(undefined);
    if (!allowed.ok) throw new Error(allowed.message);
    const registered = await registerClient(this.store, metadata, this.options.clock.nowSeconds(), this.options.log);
    if (allowed.value.length > 0 && "client_id" in registered) {
      const client = await this.store.findByClientId(registered.client_id);
      if (client) await this.store.setAllowedGroups(client.id, allowed.value);
    }
    return registered;
  }

  /** A registered client by its public identifier. */
  findClient(clientId: string): Promise<OAuthClient | undefined> {
    return this.store.findByClientId(clientId);
  }

  /**
   * The user's live grants of this client cover `scope`: consent given before and not revoked since
   * (OIDC Core §3.1.2.1 `prompt=none` may grant nothing more).
   */
  async consentedTo(uid: string, clientInternalId: number, scope: string): Promise<boolean> {
    const scopes = await this.grants.liveGrantScopes(uid, clientInternalId, this.options.clock.nowSeconds());
    const consented = new Set(scopes.flatMap((granted) => [...scopeValues(granted)]));
    return consentCovers(consented, scope);
  }

  /** The token endpoint after its throttle reservation (token-endpoint.ts). */
  token(request: TokenRequest, admission?: TokenAdmission): Promise<GrantResult> {
    return handleTokenRequest(
      this.store,
      this.options.lookups,
      this.grantDeps(request.log ?? this.options.log, request.audit),
      request,
      admission,
    );
  }

  /**
   * The token request's first read (its client and presented code or refresh token) made with its
   * throttle reservation (TokenLookups.reserveAndRead); it goes back in as TokenAdmission.readAhead.
   * Undefined when the request names nothing to read.
   */
  reserveWithReadAhead(request: TokenRequest): ReserveWithRead<ReadAhead> | undefined {
    const plan = readAheadPlan(request);
    if (!plan) return undefined;
    return async (bucket, now) => {
      const { counts, found } = await this.options.lookups.reserveAndRead(bucket, now, plan);
      return { counts, read: readAheadOf(plan, found) };
    };
  }

  private grantDeps(log: EventLog, audit: AuditTrail | undefined = this.options.audit): GrantDeps {
    return {
      grants: this.grants,
      devices: this.options.devices,
      now: this.options.clock.nowSeconds(),
      refreshTokenLifetime: this.options.refreshTokenLifetime(),
      refreshReuseGrace: this.options.refreshReuseGrace(),
      sealer: this.options.sealer,
      log,
      idTokens: this.idTokens,
      audit,
    };
  }

  /** RFC 7009 revocation: `undefined` when done (or the token is unknown), else the error to answer. */
  revokeToken(request: TokenRequest): Promise<OAuthError | undefined> {
    return revokeToken(this.store, this.grants, request.log ?? this.options.log, request);
  }

  /** RFC 7662 introspection, for a confidential client authenticated with HTTP Basic. */
  introspect(request: TokenRequest): Promise<IntrospectionResponse | OAuthError> {
    return introspectToken(this.store, this.grants, this.options.users, this.options.clock.nowSeconds(), request);
  }

  /** Deletes grace-window pairs whose window closed (job `oauth2:grace-purge`, and the cleanup). */
  purgeGracePairs(): Promise<number> {
    return this.grants.purgeGracePairs(this.options.clock.nowSeconds());
  }

  /** BearerTokenResolver: a live access token's user and client (the chain checks the user is enabled). */
  async resolve(
    token: string,
  ): Promise<{ user: User; clientId: string; scope: string | null; avatarExtension: string | null } | undefined> {
    if (token.length !== TOKEN_LENGTH) return undefined;
    const found = await this.grants.findAccessTokenWithUser(sha256Hex(token));
    if (!found || isExpired(found.token.expiresAt, this.options.clock.nowSeconds())) return undefined;
    return { user: found.user, clientId: found.token.clientId, scope: found.token.scope, avatarExtension: found.avatarExtension };
  }

  authorizedClients(uid: string): Promise<AuthorizedClient[]> {
    return this.grants.authorizedClients(uid, this.options.clock.nowSeconds());
  }

  /** Personal settings' Revoke: every grant (so every code and token) of this user for the client. */
  async revoke(uid: string, clientInternalId: number): Promise<boolean> {
    const client = await this.store.findById(clientInternalId);
    if (!client) return false;
    const grants = await this.grants.revokeClientForUser(uid, client.id);
    this.options.log.info(
      { event: "oauth2_revoked", client: client.clientId, uid, grants },
      `The user "${uid}" revoked the client "${client.name}".`,
    );
    if (grants > 0) await this.notify("clientRevoked", uid, client);
    return grants > 0;
  }

  /**
   * Every grant of this user, of every client (so every code and token): a password change that
   * signs out every application. Each client is logged and told to the listeners as a revocation.
   * Returns how many grants went.
   */
  async revokeAllOf(uid: string): Promise<number> {
    const clientIds = await this.grants.revokeAllForUser(uid);
    for (const id of new Set(clientIds)) {
      const client = await this.store.findById(id);
      if (!client) continue;
      this.options.log.info(
        { event: "oauth2_revoked", client: client.clientId, uid, grants: clientIds.filter((c) => c === id).length },
        `The user "${uid}" revoked the client "${client.name}".`,
      );
      await this.notify("clientRevoked", uid, client);
    }
    return clientIds.length;
  }

  /**
   * The cleanup job and `./occ oauth2:cleanup`: grace pairs, expired codes and tokens, then the
   * self-registered clients unused for 90 days with their grants (registration.ts).
   */
  async cleanup(onProgress?: CleanupProgress): Promise<CleanupCounts> {
    await this.purgeGracePairs();
    const now = this.options.clock.nowSeconds();
    const counts = await cleanupExpired(
      { grants: this.grants, devices: this.options.devices },
      now,
      this.options.log,
      onProgress,
    );
    await removeUnusedRegisteredClients(this.store, now, this.options.log);
    return counts;
  }

  /**
   * docs/upstream/owncloud-oauth2.md A.2.1: the name of the application a login is for, when the login returns to an
   * authorize URL of a known client.
   */
  async clientNameForReturnUrl(returnUrl: string): Promise<string | undefined> {
    let url: URL;
    try {
      url = new URL(returnUrl, "http://keystream.invalid");
      if (!decodeURIComponent(url.pathname).includes("apps/oauth2/authorize")) return undefined;
    } catch {
      return undefined;
    }
    const clientId = url.searchParams.get("client_id");
    return clientId === null ? undefined : (await this.store.findByClientId(clientId))?.name;
  }

  private async notify(event: keyof OAuthEvents, uid: string, client: { clientId: string; name: string }): Promise<void> {
    const listener = this.events;
    if (!listener) return;
    try {
      await listener[event](uid, { id: client.clientId, name: client.name });
    } catch (error) {
      this.options.log.warn(
        { event: "oauth2_event_listener_failed", listener: event, err: error },
        "OAuth event listener failed",
      );
    }
  }
}
