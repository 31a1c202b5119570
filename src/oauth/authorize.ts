import { CODE_LIFETIME_SECONDS } from "./domain/lifetimes.js";
import { type ChallengeMethod, checkChallenge } from "./domain/pkce.js";
import { decodeSuppliedRedirectUri, redirectTarget, redirectUriMatches } from "./domain/redirect-uri.js";
import { grantedScope, trustCovers } from "./domain/scope.js";
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
  /** Implicit flow only: `query` gives ownCloud's query-string form, otherwise the RFC 6749 §4.2.2 fragment. */
  responseMode: string | undefined;
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
  /** 303 to the validated redirect URI with an error. */
  | { kind: "redirect"; location: string; detail: string }
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
 * 5. response type `code` or `token`, else a redirect with `unsupported_response_type`;
 * 6. for `code`, the PKCE parameters (RFC 7636 §4.4.1, `checkChallenge`), else a redirect with
 *    `invalid_request` (the redirect URI is proven by then). The implicit flow issues no code to
 *    bind a challenge to, so there they are ignored, as ownCloud ignores them;
 * 7. the scope: what the request is granted (`grantedScope`: without `scope`, or for a client with
 *    account access, the account scope an ownCloud client's request has always had), else a
 *    redirect with `invalid_scope` (RFC 6749 §4.1.2.1) when it names no scope Keystream knows;
 * 8. with `openid` in `scope`, the OpenID Connect parameters (OIDC Core §3.1.2.2,
 *    `checkOpenIdRequest`), else a redirect with the OIDC error. Without `openid` none of them is
 *    looked at, so an ownCloud client's request is judged by steps 1–7 alone.
 */
export async function checkAuthorizationRequest(
  clients: ClientStore,
  query: AuthorizationQuery,
  options: { issuer: string; currentUid?: string | undefined; userExists?: (uid: string) => Promise<boolean> },
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

  if (responseType !== "code" && responseType !== "token") {
    return {
      kind: "redirect",
      location: redirectTarget(redirectUri, { error: "unsupported_response_type", state, iss: options.issuer }),
      detail: `Invalid OAuth request with wrong response_type: ${responseType}`,
    };
  }

  const pkce = responseType === "code" ? checkChallenge(challenge, method) : { ok: true as const, pkce: null };
  if (!pkce.ok) {
    return {
      kind: "redirect",
      location: redirectTarget(redirectUri, { error: "invalid_request", state, iss: options.issuer }),
      detail: `Invalid OAuth request with ${pkce.detail}`,
    };
  }

  const granted = grantedScope(scope, client.accountAccess === true);
  if (granted === undefined) {
    return {
      kind: "redirect",
      location: redirectTarget(redirectUri, {
        error: "invalid_scope",
        error_description: "no scope this server grants was requested",
        state,
        iss: options.issuer,
      }),
      detail: `Invalid OAuth request with unknown scope: ${scope}`,
    };
  }

  const openid = checkOpenIdRequest(query);
  if (!openid.ok) {
    return {
      kind: "redirect",
      location: redirectTarget(redirectUri, {
        error: openid.error,
        error_description: openid.description,
        state,
        iss: options.issuer,
      }),
      detail: `Invalid OpenID Connect request: ${openid.description}`,
    };
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
      responseMode,
      issuer: options.issuer,
      scope: granted,
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
 * Where an authorization response's parameters go: the query for the code flow (RFC 6749 §4.1.2)
 * and for ownCloud's `response_mode=query`, else the fragment for the implicit flow (§4.2.2, and
 * its errors too, §4.2.2.1).
 */
export function responsePlacement(request: AuthorizationRequest): "query" | "fragment" {
  return request.responseType === "token" && request.responseMode !== "query" ? "fragment" : "query";
}

/**
 * An error answered at the validated redirect URI (OIDC Core §3.1.2.6, e.g. `login_required` for
 * `prompt=none`), with `state` and `iss` (RFC 9207), in the response mode of the request.
 */
export function errorRedirect(request: AuthorizationRequest, error: string, description: string): string {
  return redirectTarget(
    request.redirectUri,
    { error, error_description: description, state: request.state, iss: request.issuer },
    responsePlacement(request),
  );
}

/**
 * The user said no on the consent page: RFC 6749 §4.1.2.1 (and §4.2.2.1) `access_denied` at the
 * validated redirect URI, with `state` and `iss` like every authorization response.
 */
export function denialRedirect(request: AuthorizationRequest): string {
  return errorRedirect(request, "access_denied", "The user denied the request.");
}

/** What issuing stores under the new grant: its code, or (implicit flow) its access token. */
export type IssuedFirst = { code: NewCode } | { tokens: ReturnType<typeof newTokens>["record"] };

/**
 * docs/upstream/owncloud-oauth2.md A.2.4: `code` → a 64-character code valid 600 s, storing the checked
 * PKCE challenge and method and the redirect URI the request used (RFC 6749 §4.1.3: the token request
 * must repeat it), redirect `code` + `state` (+ `iss`, RFC 9207); `token` (implicit, no refresh token) →
 * the access token in the fragment (RFC 6749 §4.2.2) or, with `response_mode=query`, in ownCloud's query
 * form.
 */
export function issueForRequest(request: AuthorizationRequest, now: number): { location: string; first: IssuedFirst } {
  if (request.responseType === "code") {
    const code = newSecretValue();
    return {
      location: redirectTarget(request.redirectUri, { code: code.value, state: request.state, iss: request.issuer }),
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
  const location =
    responsePlacement(request) === "query"
      ? redirectTarget(request.redirectUri, {
          access_token: issued.accessToken,
          expires_in: expiresIn,
          state: request.state,
          iss: request.issuer,
        })
      : redirectTarget(
          request.redirectUri,
          {
            access_token: issued.accessToken,
            token_type: "Bearer",
            expires_in: expiresIn,
            state: request.state,
            iss: request.issuer,
          },
          "fragment",
        );
  return { location, first: { tokens: issued.record } };
}
