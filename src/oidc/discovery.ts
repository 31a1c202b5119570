import { SCOPE_NAMES } from "../oauth/domain/scope.js";
import { CLAIMS_SUPPORTED } from "./claims.js";
import { SIGNING_ALGORITHM } from "./signing-keys.js";

/** The absolute URLs the metadata names (the HTTP layer knows the paths and the base URL). */
export interface ProviderEndpoints {
  issuer: string;
  authorization: string;
  token: string;
  userinfo: string;
  revocation: string;
  introspection: string;
  /** RFC 8628 §4. */
  deviceAuthorization: string;
  jwks: string;
  endSession: string;
  /** RFC 7591 §3: present only while dynamic registration is on (host setting `oidc.dynamic_registration`). */
  registration?: string | undefined;
}

/**
 * The one metadata document, served both as RFC 8414 authorization server metadata and as the
 * OpenID Provider Configuration (OpenID Connect Discovery 1.0 §3), so the two always agree. It
 * advertises only what the endpoints accept (test/oauth/metadata.test.ts walks it).
 */
export function providerMetadata(endpoints: ProviderEndpoints, pkceMethods: readonly string[]): Record<string, unknown> {
  return {
    issuer: endpoints.issuer,
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    userinfo_endpoint: endpoints.userinfo,
    jwks_uri: endpoints.jwks,
    end_session_endpoint: endpoints.endSession,
    revocation_endpoint: endpoints.revocation,
    introspection_endpoint: endpoints.introspection,
    device_authorization_endpoint: endpoints.deviceAuthorization,

    ...(endpoints.registration === undefined ? {} : { registration_endpoint: endpoints.registration }),
    // Every scope the authorization endpoint grants (src/oauth/domain/scope.ts); `offline_access`
    // is accepted, and every code grant gets a refresh token (ownCloud's rule).
    scopes_supported: [...SCOPE_NAMES],
    response_types_supported: ["code", "token"],
    response_modes_supported: ["query", "fragment"],
    grant_types_supported: ["authorization_code", "refresh_token", "implicit", "urn:ietf:params:oauth:grant-type:device_code"],
    code_challenge_methods_supported: [...pkceMethods],
    // RFC 6749 §2.3.1, src/oauth/client-authentication.ts: the secret in the Basic header or the
    // body; `none`: a public client (client_id with PKCE, or client_id alone on a PKCE grant's refresh).
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    authorization_response_iss_parameter_supported: true,
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [SIGNING_ALGORITHM],
    claims_supported: [...CLAIMS_SUPPORTED],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    // Discovery §3: the default is true, so say that request_uri is not supported.
    request_uri_parameter_supported: false,
    prompt_values_supported: ["none", "login", "consent", "select_account"],
  };
}
