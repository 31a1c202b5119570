import { avatarUrlFor } from "../accounts/avatars.js";
import type { User } from "../accounts/ports.js";
import type { Clock } from "../clock.js";
import { isOpenIdScope, scopeValues } from "../oauth/domain/scope.js";
import type { GrantIdentity, IdTokenMinter, RequestOrigin } from "../oauth/ports.js";
import type { BackchannelLogout } from "./backchannel-logout.js";
import { type ClaimsSubject, scopedUserClaims } from "./claims.js";
import { checkEndSession, type EndSessionCheck, type EndSessionParams } from "./end-session.js";
import { idTokenClaims } from "./id-token.js";
import type { SigningKeys } from "./signing-keys.js";

export interface OpenIdProviderOptions {
  keys: SigningKeys;
  clock: Clock;
  users: { find(uid: string): Promise<User | undefined> };
  /** The user's avatar as an absolute URL under `baseUrl`, or undefined (accounts/avatars.ts). */
  pictureUrl(baseUrl: string, uid: string): Promise<string | undefined>;
  clients: { findByClientId(clientId: string): Promise<{ name: string; postLogoutRedirectUri?: string | null } | undefined> };
  /** Back-channel logout: the ID tokens' `sid`, and which client got one in which session. */
  backchannel: BackchannelLogout;
  /** The ids of the user's groups (src/groups), for the `groups` claim. */
  groupsOf?: ((uid: string) => Promise<string[]>) | undefined;
}

/**
 * The OpenID Provider (OpenID Connect Core 1.0), on top of the OAuth service: ID tokens for `openid`
 * grants (the token endpoint's `IdTokenMinter`), the claims UserInfo answers, and RP-initiated logout's
 * rules. No HTTP here: routes in src/http/routes/oidc.ts call it.
 */
export class OpenIdProvider implements IdTokenMinter {
  constructor(private readonly options: OpenIdProviderOptions) {}

  get keys(): SigningKeys {
    return this.options.keys;
  }

  get backchannel(): BackchannelLogout {
    return this.options.backchannel;
  }

  async mint(input: Parameters<IdTokenMinter["mint"]>[0]): Promise<string | undefined> {
    const { identity } = input;
    if (!isOpenIdScope(identity.scope)) return undefined;
    const user = await this.options.users.find(input.uid);
    if (!user) return undefined;
    const sessionIdHash = identity.sessionIdHash ?? null;
    const sid = sessionIdHash === null ? undefined : this.options.backchannel.sidOf(sessionIdHash);
    const claims = idTokenClaims({
      issuer: input.origin.issuer,
      clientId: input.clientId,
      subject: await this.subjectOf(user, input.origin.baseUrl, undefined, identity.scope),
      scope: identity.scope as string,
      authTime: identity.authTime,
      nonce: input.withNonce ? identity.nonce : null,
      accessToken: input.accessToken,
      now: this.options.clock.nowSeconds(),
      sid,
    });
    const idToken = await this.options.keys.sign(claims);
    // Back-Channel Logout 1.0 §2.7: the code exchange's ID token makes the client one to tell when
    // this session ends (a refresh's belongs to the same session and client: already recorded).
    if (sessionIdHash !== null && sid !== undefined && input.withNonce) {
      await this.options.backchannel.recordIdToken({
        sessionIdHash,
        sid,
        clientId: input.clientId,
        uid: input.uid,
        issuer: input.origin.issuer,
      });
    }
    return idToken;
  }

  /**
   * OIDC Core §5.3.2: the claims of an `openid` token's scope, `sub` as in its ID tokens. A token
   * issued without `openid` gets undefined: UserInfo then answers ownCloud's claims
   * (docs/upstream/owncloud-oauth2.md A.7), which ownCloud's clients expect.
   */
  async userInfo(
    user: User,
    scope: GrantIdentity["scope"],
    origin: RequestOrigin,
    avatarExtension?: string | null,
  ): Promise<Record<string, unknown> | undefined> {
    if (!isOpenIdScope(scope)) return undefined;
    return scopedUserClaims(await this.subjectOf(user, origin.baseUrl, avatarExtension, scope), scope);
  }

  /** RP-Initiated Logout 1.0 (src/oidc/end-session.ts decides). */
  async checkEndSession(params: EndSessionParams, issuer: string): Promise<EndSessionCheck> {
    const hint =
      params.id_token_hint === undefined
        ? undefined
        : ((await this.options.keys.verifiedClaims(params.id_token_hint)) ?? ("invalid" as const));
    return checkEndSession(params, {
      hint,
      issuer,
      findClient: (clientId) => this.options.clients.findByClientId(clientId),
    });
  }

  /**
   * `avatarExtension`: the avatar's, when already read (null: none); undefined: asked for here. The
   * groups are read (one statement) only when `scope` has `groups`.
   */
  private async subjectOf(
    user: User,
    baseUrl: string,
    avatarExtension: string | null | undefined,
    scope: string | null | undefined,
  ): Promise<ClaimsSubject> {
    const groups = scopeValues(scope).has("groups") && this.options.groupsOf ? await this.options.groupsOf(user.uid) : undefined;
    const pictureUrl =
      avatarExtension === undefined
        ? await this.options.pictureUrl(baseUrl, user.uid)
        : avatarExtension === null
          ? undefined
          : avatarUrlFor(baseUrl, user.uid, avatarExtension);
    return {
      uid: user.uid,
      displayName: user.displayName,
      email: user.email,
      emailVerified: user.emailVerified,
      pictureUrl,
      groups,
    };
  }
}
