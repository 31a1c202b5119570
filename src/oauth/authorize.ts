import { type AuthorizationResponse, type ResponseMode, responseModeFor } from "./authorization-response.js";
import { CODE_LIFETIME_SECONDS } from "./domain/lifetimes.js";
import { type ChallengeMethod, checkChallenge } from "./domain/pkce.js";
import { decodeSuppliedRedirectUri, redirectUriMatches } from "./domain/redirect-uri.js";
import { grantedScope, trustCovers, widenedScope } from "./domain/scope.js";
import { checkOpenIdRequest, type OpenIdRequest } from "./openid-request.js";
import type { ClientStore, NewCode, OAuthClient } from "./ports.js";
import { newSecretValue, newTokens } from "./tokens.js";

/** A validated authorization request (docs/upstream/owncloud-oauth2.md A.2). */
export interface AuthorizationRequest {
  client: OAuthClient;
  responseType: "code" | "token";
  /** The supplied redirect URI, decoded once more and matched against the registered one. */
  redirectUri: string;
  state: string | undefined;
  /** RFC 7636, checked by `checkChallenge`: null when the request carried no (or an empty) challenge. */
  codeChallenge: string | null;
  codeChallengeMethod: ChallengeMethod | null;
  /**
   * How the response goes back (src/oauth/authorization-response.ts); for the implicit flow `query`
   * gives ownCloud's query-string form.
   */
  responseMode: ResponseMode;
  /** RFC 9207: the issuer identifier, sent as `iss` in every authorization response. */
  issuer: string;
  /** What the request is granted (grantedScope, src/oauth/domain/scope.ts), kept with the grant. */
  scope: string;
  /** OpenID Connect parameters (src/oidc/request.ts), null when `scope` lacks `openid`. */
  openid: OpenIdRequest | null;
}

/**
 * Why a request is refused without a redirect, so the page can tell a person what is wrong: parameters
 * missing, repeated or not strings; no such client; a redirect URI not registered for the client.
 */
export type InvalidReason = "invalid_parameters" | "unknown_client" | "redirect_uri_mismatch";

export type AuthorizationCheck =
  /** "Request not valid" page; never a redirect (the URI is not proven). */
  | { kind: "invalid"; reason: InvalidReason; clientName: string | null; detail: string }
  | { kind: "switch_user"; requestedUser: string }
  /** An error answered at the validated redirect URI, in the request's response mode. */
  | {
      kind: "redirect";
      response: AuthorizationResponse;
      detail: string;
      /** Set when the refusal is the client's allowed groups (`access_denied`): the audit trail's "refused by group". */
      refusedByGroups?: true;
    }
  /**
   * The client's allowed groups do not admit the user, and the client is an ownCloud or Nextcloud
   * client (account access), which shows no error it receives at its redirect URI: a page says the
   * application is not available to them. Every other client gets `access_denied` at its redirect URI.
   */
  | { kind: "not_available"; clientName: string; detail: string }
  | { kind: "valid"; request: AuthorizationRequest };

/** The query of an authorization request, as the HTTP layer parsed it (strings, arrays, absent). */
export type AuthorizationQuery = Record<string, unknown>;

function optionalString(query: AuthorizationQuery, name: string): string | undefined | null {
  const value = query[name];
  if (value === undefined) return undefined;
  return typeof value === "string" ? value : null;
}

/**
 * ownCloud's order (owncloud/oauth2 lib/Controller/PageController.php, docs/upstream/owncloud-oauth2.md
 * A.2.2), first failure wins:
 * 1. response_type, client_id, redirect_uri strings, state (and PKCE parameters) a string when present;
 * 2. `user` given and not the logged-in user → switch-user page (only when `currentUid` is given);
 * 3. known client; 4. redirect URI matches the registration;
 * 5. `response_mode` absent or supported (authorization-response.ts), else `invalid_request` in the
 *    response type's default mode; then response type `code` or `token`, else a redirect with
 *    `unsupported_response_type` (in the requested mode);
 * 6. for `code`, the PKCE parameters (RFC 7636 §4.4.1, `checkChallenge`), else a redirect with
 *    `invalid_request` (the redirect URI is proven by then). The implicit flow issues no code to
 *    bind a challenge to, so there they are ignored, as ownCloud ignores them;
 * 7. the scope: what the request is granted (`grantedScope`: without `scope`, or for a client with
 *    account access, the account scope an ownCloud client's request has always had), else a
 *    redirect with `invalid_scope` (RFC 6749 §4.1.2.1) when it names no scope Keystream knows;
 * 8. with `openid` in `scope`, the OpenID Connect parameters (OIDC Core §3.1.2.2,
 *    `checkOpenIdRequest`), else a redirect with the OIDC error. A `claims` request (§5.5) widens
 *    the granted scope by the sign-in scopes that disclose the claims it asks for, so the consent
 *    page, a trusted client's trusted scopes and `prompt=none` judge what will be disclosed, and
 *    the ID token and UserInfo (which answer by the grant's scope) carry them. Without `openid`
 *    none of them is looked at, so an ownCloud client's request is judged by steps 1–7 (and 9) alone;
 * 9. with a user known (`admitted`), the client's allowed groups (docs/oauth2.md): a user in none of
 *    them gets `access_denied` at the redirect URI (RFC 6749 §4.1.2.1, §4.2.2.1), or for an ownCloud
 *    or Nextcloud client the "not available" page. No code, no grant.
 */
export async function checkAuthorizationRequest(
  clients: ClientStore,
  query: AuthorizationQuery,
  options: {
    issuer: string;
    currentUid?: string | undefined;
    userExists?: (uid: string) => Promise<boolean>;
    /** Whether the client admits the user the request would be granted to (absent: not asked, nobody known yet). */
    admitted?: ((client: OAuthClient) => Promise<boolean>) | undefined;
  },
): Promise<AuthorizationCheck> {
  const responseType = optionalString(query, "response_type");
  const clientId = optionalString(query, "client_id");
  const suppliedRedirect = optionalString(query, "redirect_uri");
  const state = optionalString(query, "state");
  const scope = optionalString(query, "scope");
  const challenge = optionalString(query, "code_challenge");
  const method = optionalString(query, "code_challenge_method");
  const responseMode = optionalString(query, "response_mode");
  if (
    typeof responseType !== "string" ||
    typeof clientId !== "string" ||
    typeof suppliedRedirect !== "string" ||
    state === null ||
    scope === null ||
    challenge === null ||
    method === null ||
    responseMode === null
  ) {
    return {
      kind: "invalid",
      reason: "invalid_parameters",
      clientName: null,
      detail: "Invalid OAuth request - one of the mandatory query parameters is missing",
    };
  }

  const requestedUser = optionalString(query, "user");
  if (options.currentUid !== undefined && typeof requestedUser === "string" && requestedUser !== "") {
    const exists = options.userExists ? await options.userExists(requestedUser) : false;
    if (!exists || requestedUser !== options.currentUid) return { kind: "switch_user", requestedUser };
  }

  const client = await clients.findByClientId(clientId);
  if (!client)
    return {
      kind: "invalid",
      reason: "unknown_client",
      clientName: null,
      detail: `Invalid OAuth request with client-id ${clientId}`,
    };

  const redirectUri = decodeSuppliedRedirectUri(suppliedRedirect);
  if (!redirectUriMatches(client.redirectUri, redirectUri, client.allowSubdomains)) {
    return {
      kind: "invalid",
      reason: "redirect_uri_mismatch",
      clientName: client.name,
      detail: `Invalid OAuth request with invalid redirect_uri: ${redirectUri} !== ${client.redirectUri}`,
    };
  }

  const { mode, invalid } = responseModeFor(responseType, responseMode);
  const refusal = (
    error: string,
    description: string | undefined,
    detail: string,
  ): Extract<AuthorizationCheck, { kind: "redirect" }> => ({
    kind: "redirect",
    response: { redirectUri, mode, parameters: { error, error_description: description, state, iss: options.issuer } },
    detail,
  });
  if (invalid) {
    return refusal("invalid_request", "unsupported response_mode", `Invalid OAuth request with response_mode ${responseMode}`);
  }

  if (responseType !== "code" && responseType !== "token") {
    return refusal("unsupported_response_type", undefined, `Invalid OAuth request with wrong response_type: ${responseType}`);
  }

  const pkce = responseType === "code" ? checkChallenge(challenge, method) : { ok: true as const, pkce: null };
  if (!pkce.ok) return refusal("invalid_request", undefined, `Invalid OAuth request with ${pkce.detail}`);

  const granted = grantedScope(scope, client.accountAccess === true);
  if (granted === undefined) {
    return refusal(
      "invalid_scope",
      "no scope this server grants was requested",
      `Invalid OAuth request with unknown scope: ${scope}`,
    );
  }

  const openid = checkOpenIdRequest(query);
  if (!openid.ok) return refusal(openid.error, openid.description, `Invalid OpenID Connect request: ${openid.description}`);

  if (options.admitted && !(await options.admitted(client))) {
    const detail = `The client ${client.clientId} does not admit this user (allowed groups)`;
    if (client.accountAccess === true) return { kind: "not_available", clientName: client.name, detail };
    return { ...refusal("access_denied", "This application is not available to this user.", detail), refusedByGroups: true };
  }

  return {
    kind: "valid",
    request: {
      client,
      responseType,
      redirectUri,
      state,
      codeChallenge: pkce.pkce?.challenge ?? null,
      codeChallengeMethod: pkce.pkce?.method ?? null,
      responseMode: mode,
      issuer: options.issuer,
      scope: openid.request ? widenedScope(granted, openid.request.claimScopes) : granted,
      openid: openid.request,
    },
  };
}

/**
 * The request may skip the consent page: its client is trusted (ownCloud's rule) and asks for no
 * scope beyond those an administrator let it receive without consent (`trusted-scopes`). A client
 * that registered itself (RFC 7591) is never trusted, whatever its flag says: anyone could have
 * registered it (RFC 7591 §5, RFC 8252 §8.6), so its user always sees the consent page.
 */
export function trustedForScope(request: AuthorizationRequest): boolean {
  const { client } = request;
  return client.trusted && client.registeredAt === undefined && trustCovers(client.trustedScopes, request.scope);
}

/**
 * An error answered at the validated redirect URI (OIDC Core §3.1.2.6, e.g. `login_required` for
 * `prompt=none`), with `state` and `iss` (RFC 9207), in the response mode of the request.
 */
export function errorResponse(request: AuthorizationRequest, error: string, description: string): AuthorizationResponse {
  return {
    redirectUri: request.redirectUri,
    mode: request.responseMode,
    parameters: { error, error_description: description, state: request.state, iss: request.issuer },
  };
}

/**
 * The user said no on the consent page: RFC 6749 §4.1.2.1 (and §4.2.2.1) `access_denied` at the
 * validated redirect URI, with `state` and `iss` like every authorization response.
 */
export function denialResponse(request: AuthorizationRequest): AuthorizationResponse {
  return errorResponse(request, "access_denied", "The user denied the request.");
}

/** What issuing stores under the new grant: its code, or (implicit flow) its access token. */
export type IssuedFirst = { code: NewCode } | { tokens: ReturnType<typeof newTokens>["record"] };

/**
 * docs/upstream/owncloud-oauth2.md A.2.4: `code` → a 64-character code valid 600 s, storing the checked
 * PKCE challenge and method and the redirect URI the request used (RFC 6749 §4.1.3: the token request
 * must repeat it), answered with `code` + `state` (+ `iss`, RFC 9207); `token` (implicit, no refresh
 * token) → the access token (RFC 6749 §4.2.2) or, with `response_mode=query`, ownCloud's query form
 * (no `token_type`).
 */
export function issueForRequest(
  request: AuthorizationRequest,
  now: number,
): { response: AuthorizationResponse; first: IssuedFirst } {
  const answer = (parameters: Record<string, string | undefined>): AuthorizationResponse => ({
    redirectUri: request.redirectUri,
    mode: request.responseMode,
    parameters: { ...parameters, state: request.state, iss: request.issuer },
  });
  if (request.responseType === "code") {
    const code = newSecretValue();
    return {
      response: answer({ code: code.value }),
      first: {
        code: {
          codeHash: code.hash,
          expiresAt: now + CODE_LIFETIME_SECONDS,
          challenge: request.codeChallenge,
          challengeMethod: request.codeChallengeMethod,
          redirectUri: request.redirectUri,
        },
      },
    };
  }
  const issued = newTokens(now, undefined);
  const expiresIn = String(issued.record.accessExpiresAt - now);
  const response =
    request.responseMode === "query"
      ? answer({ access_token: issued.accessToken, expires_in: expiresIn })
      : answer({ access_token: issued.accessToken, token_type: "Bearer", expires_in: expiresIn });
  return { response, first: { tokens: issued.record } };
}
