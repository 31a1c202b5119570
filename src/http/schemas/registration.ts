import { Type } from "typebox";
import { errorResponse, MAINTENANCE_RESPONSE } from "./common.js";

/**
 * Dynamic client registration (RFC 7591 §3), on only with the host setting
 * `oidc.dynamic_registration` (src/oauth/domain/registration.ts says what `loopback` accepts).
 */

const NO_STORE = { "cache-control": Type.Literal("no-store"), pragma: Type.Literal("no-cache") };

const ClientInformation = Type.Object(
  {
    client_id: Type.String(),
    client_secret: Type.Optional(Type.String({ description: "Absent for token_endpoint_auth_method none." })),
    client_secret_expires_at: Type.Optional(Type.Literal(0, { description: "The secret does not expire." })),
    client_id_issued_at: Type.Integer(),
    client_name: Type.String({
      description: "The name sent (stored with the start of the client id appended, which oauth2:list-clients shows).",
    }),
    redirect_uris: Type.Array(Type.String()),
    grant_types: Type.Array(Type.String()),
    response_types: Type.Array(Type.String()),
    token_endpoint_auth_method: Type.String(),
    application_type: Type.Literal("native"),
    scope: Type.String({ description: "The requested scopes this server grants (all of them when none was requested)." }),
  },
  { additionalProperties: false, title: "ClientInformation" },
);

export const registrationRouteSchema = {
  tags: ["OAuth 2.0"],
  summary: "Dynamic client registration (RFC 7591)",
  description:
    "No credentials. 404 unless the host setting oidc.dynamic_registration is loopback. The body is a JSON object of RFC 7591 §2 client metadata: `redirect_uris` (loopback: http://127.0.0.1, http://[::1] or http://localhost, any port, differing only in the port), `application_type` `native` (required), `token_endpoint_auth_method` (`client_secret_basic` by default, `client_secret_post`, or `none` for a public client with PKCE), `grant_types` (authorization_code, refresh_token), `response_types` (code), `client_name`, `scope`; other members are ignored. Every registration counts in its address's throttle bucket.",
  consumes: ["application/json"],
  security: [{}],
  response: {
    201: { ...ClientInformation, description: "The registered client (RFC 7591 §3.2.1).", headers: NO_STORE },
    400: { ...errorResponse("RFC 7591 §3.2.2: invalid_redirect_uri or invalid_client_metadata."), headers: NO_STORE },
    404: errorResponse("Dynamic registration is off."),
    429: {
      ...errorResponse("Too many registrations from this address."),
      headers: { ...NO_STORE, "retry-after": Type.String({ description: "Seconds" }) },
    },
    ...MAINTENANCE_RESPONSE,
  },
};
