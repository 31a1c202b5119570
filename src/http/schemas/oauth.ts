import { type TSchema, Type } from "typebox";
import { MAX_PARAMETER_LENGTH, MAX_PARAMETER_NAME_LENGTH, MAX_PARAMETERS } from "../oauth-params.js";
import {
  AUTHENTICATION_RESPONSES,
  ErrorBody,
  emptyResponse,
  MAINTENANCE_RESPONSE,
  SECURITY,
  type SecurityRequirements,
  USER_SECURITY,
} from "./common.js";

/**
 * The OAuth 2.0 API (token, revocation, introspection, UserInfo, the CORS preflight) and the
 * RFC 8414 metadata: what each route validates and answers, the one description of both.
 */

const TAGS = ["OAuth 2.0"];

/** Every OAuth parameter: a string, once (a repeated name parses to an array: refused). */
const ParameterValue = Type.String({ maxLength: MAX_PARAMETER_LENGTH });

/**
 * The strict parameter rules of RFC 6749 §3.1/§3.2 as a schema (`oauth-params.ts` explains them):
 * an object (or no body) of at most 64 strings of at most 4096 characters, names of at most 128.
 * A refusal becomes 400 `invalid_request` through `parametersOf` (attachValidation), not Fastify's
 * default 400: the wire answer is RFC 6749 §5.2's.
 */
function oauthParameters(named: Record<string, string>): TSchema {
  const properties = Object.fromEntries(
    Object.entries(named).map(([name, description]) => [name, { ...ParameterValue, description }]),
  );
  return {
    type: ["object", "null"],
    maxProperties: MAX_PARAMETERS,
    propertyNames: { maxLength: MAX_PARAMETER_NAME_LENGTH },
    properties,
    additionalProperties: ParameterValue,
    description: "Form parameters (a JSON object of strings is read the same way); unknown parameters are ignored.",
  } as unknown as TSchema;
}

const CLIENT_ID = "The client's id: a public client's only credential (PKCE), or with client_secret in the body.";
const CLIENT_SECRET = "A confidential client's secret when it does not use HTTP Basic (client_secret_post).";

const TokenParameters = oauthParameters({
  grant_type: "`authorization_code`, `refresh_token` or `urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 §3.4).",
  device_code: "The device code (the device code grant).",
  code: "The authorization code (authorization_code).",
  redirect_uri: "The redirect URI the code was issued for (authorization_code).",
  code_verifier: "RFC 7636 PKCE verifier, when the code was issued with a challenge.",
  refresh_token: "The refresh token (refresh_token).",
  scope: "Accepted and ignored (refresh_token): the new token keeps the grant's scope, as the response's `scope` says.",
  client_id: CLIENT_ID,
  client_secret: CLIENT_SECRET,
});

const TokenParametersOfToken = oauthParameters({
  token: "The access or refresh token.",
  token_type_hint: "`access_token` or `refresh_token` (RFC 7009 §2.1); a hint only.",
  client_id: CLIENT_ID,
  client_secret: CLIENT_SECRET,
});

const FORM = ["application/x-www-form-urlencoded", "application/json"];

/** Client endpoints accept HTTP Basic client credentials, or a public client's client_id in the body. */
const CLIENT_SECURITY: SecurityRequirements = [{ [SECURITY.clientSecretBasic]: [] }, {}];

const NO_STORE_HEADERS = {
  "cache-control": Type.Literal("no-store"),
  pragma: Type.Literal("no-cache"),
};

const CLIENT_ERROR_RESPONSES = {
  400: {
    ...ErrorBody,
    description:
      "RFC 6749 §5.2 error: `invalid_request` (malformed, repeated, non-string, oversized or too many parameters), `invalid_client`, `invalid_grant`, `unauthorized_client`, `unsupported_grant_type`, `unsupported_token_type`.",
    headers: NO_STORE_HEADERS,
  },
  401: {
    ...ErrorBody,
    description: "`invalid_client` after an HTTP Basic attempt, with a Basic challenge.",
    headers: { ...NO_STORE_HEADERS, "www-authenticate": Type.String() },
  },
  429: {
    ...ErrorBody,
    description: "`temporarily_unavailable`: too many failed attempts from this address.",
    headers: { ...NO_STORE_HEADERS, "retry-after": Type.String() },
  },
  ...MAINTENANCE_RESPONSE,
};

export const TokenSuccess = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal("Bearer"),
    expires_in: Type.Integer({ minimum: 1 }),
    refresh_token: Type.String(),
    user_id: Type.String(),
    scope: Type.String({
      description: "RFC 6749 §5.1: what the token may do, space-separated (`account` when the request sent no `scope`).",
    }),
    message_url: Type.String({ format: "uri", description: 'ownCloud\'s "authorization successful" page.' }),
    id_token: Type.Optional(
      Type.String({ description: "OpenID Connect Core §3.1.3.3: an RS256 JWT, only when the grant's scope contains `openid`." }),
    ),
  },
  { additionalProperties: false, title: "TokenResponse" },
);

export const tokenRouteSchema = {
  tags: TAGS,
  summary: "Token endpoint (RFC 6749 §3.2)",
  description:
    "Exchanges an authorization code, or rotates a refresh token. A refresh that the legacy desktop client would loop on fails softly: 200 with an error body.",
  security: CLIENT_SECURITY,
  consumes: FORM,
  body: TokenParameters,
  response: {
    200: {
      anyOf: [TokenSuccess, ErrorBody],
      description: "Tokens; or an error body (soft failure of a legacy desktop refresh, ownCloud's behaviour).",
      headers: NO_STORE_HEADERS,
    },
    ...CLIENT_ERROR_RESPONSES,
  },
};

export const revocationRouteSchema = {
  tags: TAGS,
  summary: "Token revocation (RFC 7009)",
  security: CLIENT_SECURITY,
  consumes: FORM,
  body: TokenParametersOfToken,
  response: {
    200: { ...emptyResponse("Revoked, or the token was unknown (RFC 7009 §2.2): an empty body."), headers: NO_STORE_HEADERS },
    ...CLIENT_ERROR_RESPONSES,
  },
};

export const IntrospectionResponse = Type.Union(
  [
    Type.Object({ active: Type.Literal(false) }, { additionalProperties: false }),
    Type.Object(
      {
        active: Type.Literal(true),
        scope: Type.String({ description: "What the token may do, space-separated (RFC 7662 §2.2)." }),
        client_id: Type.String(),
        username: Type.String(),
        aud: Type.String({ description: "The client the token was issued to." }),
        sub: Type.String(),
        exp: Type.Integer(),
        iat: Type.Integer(),
        iss: Type.Optional(Type.String({ format: "uri", description: "The issuer, as in the metadata and RFC 9207 `iss`." })),
        token_type: Type.Union([Type.Literal("Bearer"), Type.Literal("refresh_token")]),
      },
      { additionalProperties: false },
    ),
  ],
  { title: "IntrospectionResponse" },
);

export const introspectionRouteSchema = {
  tags: TAGS,
  summary: "Token introspection (RFC 7662)",
  description: 'Confidential clients only; another client\'s token is `{"active": false}`.',
  security: [{ [SECURITY.clientSecretBasic]: [] }] as SecurityRequirements,
  consumes: FORM,
  body: TokenParametersOfToken,
  response: {
    200: { ...IntrospectionResponse, description: "RFC 7662 §2.2", headers: NO_STORE_HEADERS },
    ...CLIENT_ERROR_RESPONSES,
  },
};

export const UserInfo = Type.Object(
  {
    sub: Type.String(),
    picture: Type.Optional(Type.String({ format: "uri", description: "Only when the user has an avatar." })),
    name: Type.Optional(
      Type.String({ description: "Always for ownCloud tokens; with the `profile` scope for OpenID Connect tokens." }),
    ),
    preferred_username: Type.Optional(Type.String({ description: "OpenID Connect tokens with the `profile` scope." })),
    email: Type.Optional(Type.String({ description: "Only when set (and, for OpenID Connect tokens, with the `email` scope)." })),
    email_verified: Type.Optional(
      Type.Boolean({
        description: "OpenID Connect tokens with the `email` scope: true only when an administrator marked the address verified.",
      }),
    ),
  },
  {
    additionalProperties: false,
    title: "UserInfo",
    description:
      "ownCloud's claims for tokens issued without `openid`; for OpenID Connect tokens, the claims the scope grants (OIDC Core §5.4).",
  },
);

export const userInfoRouteSchema = {
  tags: TAGS,
  summary: "UserInfo",
  security: USER_SECURITY,
  response: {
    200: { ...UserInfo, description: "The authenticated user.", headers: NO_STORE_HEADERS },
    ...AUTHENTICATION_RESPONSES,
    ...MAINTENANCE_RESPONSE,
  },
};

export const userInfoPostRouteSchema = {
  ...userInfoRouteSchema,
  summary: "UserInfo by POST (OIDC Core §5.3.1)",
  description: "The access token in the Authorization header, or as the form body's `access_token` (RFC 6750 §2.2).",
  consumes: ["application/x-www-form-urlencoded"],
};

export const preflightRouteSchema = {
  tags: TAGS,
  summary: "CORS preflight for any path under api/v1",
  params: Type.Object({ "*": Type.String({ description: "Any path under api/v1." }) }),
  response: {
    200: {
      ...emptyResponse("CORS headers (the Origin echoed, or `*`)."),
      headers: {
        "access-control-allow-origin": Type.String(),
        "access-control-allow-methods": Type.String(),
        "access-control-allow-headers": Type.String(),
        "access-control-max-age": Type.String(),
      },
    },
    ...MAINTENANCE_RESPONSE,
  },
};

export const AuthorizationServerMetadata = Type.Object(
  {
    issuer: Type.String({ format: "uri" }),
    authorization_endpoint: Type.String({ format: "uri" }),
    token_endpoint: Type.String({ format: "uri" }),
    userinfo_endpoint: Type.String({ format: "uri" }),
    revocation_endpoint: Type.String({ format: "uri" }),
    introspection_endpoint: Type.String({ format: "uri" }),
    device_authorization_endpoint: Type.String({ format: "uri" }),

    registration_endpoint: Type.Optional(
      Type.String({ format: "uri", description: "RFC 7591: only while the host setting oidc.dynamic_registration is on." }),
    ),
    jwks_uri: Type.String({ format: "uri" }),
    end_session_endpoint: Type.String({ format: "uri" }),
    scopes_supported: Type.Array(Type.String()),
    response_types_supported: Type.Array(Type.String()),
    response_modes_supported: Type.Array(Type.String()),
    grant_types_supported: Type.Array(Type.String()),
    code_challenge_methods_supported: Type.Array(Type.String()),
    token_endpoint_auth_methods_supported: Type.Array(Type.String()),
    revocation_endpoint_auth_methods_supported: Type.Array(Type.String()),
    introspection_endpoint_auth_methods_supported: Type.Array(Type.String()),
    authorization_response_iss_parameter_supported: Type.Boolean(),
    subject_types_supported: Type.Array(Type.String()),
    id_token_signing_alg_values_supported: Type.Array(Type.String()),
    claims_supported: Type.Array(Type.String()),
    claims_parameter_supported: Type.Boolean(),
    request_parameter_supported: Type.Boolean(),
    request_uri_parameter_supported: Type.Boolean(),
    prompt_values_supported: Type.Array(Type.String()),
  },
  {
    additionalProperties: false,
    title: "AuthorizationServerMetadata",
    description: "RFC 8414 metadata and the OpenID Provider Configuration (Discovery 1.0 §3): one document.",
  },
);

export const metadataRouteSchema = {
  tags: TAGS,
  summary: "Authorization server metadata (RFC 8414) / OpenID Provider Configuration",
  response: {
    200: {
      ...AuthorizationServerMetadata,
      description: "Public; `public, max-age=3600` when overwrite.cli.url fixes the issuer, else `private` and varying on Host.",
      headers: { "cache-control": Type.String() },
    },
    ...MAINTENANCE_RESPONSE,
  },
};

/** RFC 7517 §5: the public signing keys, the retired ones within their grace period. */
export const JwkSet = Type.Object(
  {
    keys: Type.Array(
      Type.Object(
        {
          kty: Type.String(),
          kid: Type.String({ description: "RFC 7638 thumbprint" }),
          use: Type.Optional(Type.String()),
          alg: Type.Optional(Type.String()),
          n: Type.Optional(Type.String()),
          e: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: "JwkSet" },
);

export const jwksRouteSchema = {
  tags: TAGS,
  summary: "ID token signing keys (JWKS, RFC 7517)",
  response: {
    200: {
      content: { "application/jwk-set+json": { schema: JwkSet } },
      description: "Public keys only; cacheable for 5 minutes.",
      headers: { "cache-control": Type.String() },
    },
    ...MAINTENANCE_RESPONSE,
  },
};

const DeviceAuthorizationParameters = oauthParameters({
  scope: "The scope asked for (space-separated); absent: the account scope, as at the authorization endpoint.",
  client_id: CLIENT_ID,
  client_secret: CLIENT_SECRET,
});

export const DeviceAuthorizationResponse = Type.Object(
  {
    device_code: Type.String({ description: "The client's secret for its polls of the token endpoint." }),
    user_code: Type.String({ description: "RFC 8628 §6.1: eight letters of BCDFGHJKLMNPQRSTVWXZ shown as `WDJB-MJHT`." }),
    verification_uri: Type.String({ format: "uri" }),
    verification_uri_complete: Type.String({ format: "uri", description: "The verification page with the user code filled in." }),
    expires_in: Type.Integer({ minimum: 1 }),
    interval: Type.Integer({ minimum: 1, description: "Seconds between polls (RFC 8628 §3.5)." }),
  },
  { additionalProperties: false, title: "DeviceAuthorizationResponse" },
);

export const deviceAuthorizationRouteSchema = {
  tags: TAGS,
  summary: "Device authorization endpoint (RFC 8628 §3.1)",
  description:
    "Starts a device authorization: the client then polls the token endpoint with `grant_type=urn:ietf:params:oauth:grant-type:device_code` while the user approves at `verification_uri`. Clients with account access (the ownCloud and Nextcloud apps) are refused with `unauthorized_client`.",
  security: CLIENT_SECURITY,
  consumes: FORM,
  body: DeviceAuthorizationParameters,
  response: {
    200: {
      ...DeviceAuthorizationResponse,
      description: "The codes and where the user enters the user code.",
      headers: NO_STORE_HEADERS,
    },
    ...CLIENT_ERROR_RESPONSES,
  },
};
