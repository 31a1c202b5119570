import { type TSchema, Type } from "typebox";

/**
 * What every API description shares: the security schemes, the one error body, the OCS envelope,
 * and the answers any route may give (maintenance, throttling). Route schemas are built from these
 * so that `@fastify/swagger` documents what the routes validate (docs/api.md).
 */

/** Names of `components.securitySchemes` (registered in `http/openapi.ts`). */
export const SECURITY = {
  /** A user's app password (or account password unless `token_auth_enforced`), RFC 7617. */
  appPassword: "appPassword",
  /** An access token from the token endpoint, RFC 6750. */
  bearer: "bearerToken",
  /** A registered client's id and secret, RFC 6749 §2.3.1 (`client_secret_basic`). */
  clientSecretBasic: "clientSecretBasic",
  /** The browser session cookie (`ks_session`) of a logged-in user. */
  session: "sessionCookie",
} as const;

/** OpenAPI security requirements: one entry per alternative; `{}` means none needed. */
export type SecurityRequirements = Record<string, string[]>[];

/** Any user credential the authentication chain accepts (`plugins/authentication.ts`). */
export const USER_SECURITY: SecurityRequirements = [
  { [SECURITY.appPassword]: [] },
  { [SECURITY.bearer]: [] },
  { [SECURITY.session]: [] },
];

/**
 * The one error body of Keystream's JSON answers: RFC 6749 §5.2 at the OAuth endpoints, and the
 * same shape for authentication, throttling and publish refusals.
 */
export const ErrorBody = Type.Object(
  { error: Type.String(), error_description: Type.Optional(Type.String()) },
  { additionalProperties: false, title: "Error" },
);

export function errorResponse(description: string): TSchema {
  return { ...ErrorBody, description };
}

/** A response with no body (204, 304, or a 200 that RFC 7009 leaves empty). */
export function emptyResponse(description: string): TSchema {
  return Type.Null({ description });
}

/** Any route: maintenance mode (`occ maintenance:mode --on`) answers 503 with Retry-After. */
export const MAINTENANCE_RESPONSE = {
  503: {
    ...ErrorBody,
    description: "Maintenance mode (every path but status.php); retry after Retry-After seconds.",
    headers: { "retry-after": Type.String({ description: "Seconds" }) },
  },
};

/** A user credential refused: 401 with a challenge, or 429 while the throttle holds the sender. */
export const AUTHENTICATION_RESPONSES = {
  401: {
    ...ErrorBody,
    description: "Missing or refused credentials (`not_authenticated`, `invalid_credentials`, `invalid_token`).",
    headers: { "www-authenticate": Type.String() },
  },
  429: {
    ...ErrorBody,
    description: "Too many failed attempts (`too_many_requests`).",
    headers: { "retry-after": Type.String() },
  },
};

export const OcsMeta = Type.Object(
  {
    status: Type.Union([Type.Literal("ok"), Type.Literal("failure")]),
    statuscode: Type.Integer({ description: "OCS v1: 100 on success; OCS v2: the HTTP status." }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

/** The OCS envelope `{"ocs": {"meta", "data"}}` around `data`. */
export function ocsEnvelope(data: TSchema): TSchema {
  return Type.Object(
    { ocs: Type.Object({ meta: OcsMeta, data }, { additionalProperties: false }) },
    { additionalProperties: false },
  );
}

const OCS_XML = Type.String({
  description:
    'The same envelope as XML: `<?xml version="1.0"?><ocs><meta>…</meta><data>…</data></ocs>`; list items are `<element>`, booleans 1 or empty.',
});

/**
 * An OCS answer in both formats: JSON with `format=json` (or an Accept header asking for JSON),
 * XML otherwise (`format=xml`); the activity API defaults to JSON (http/activity-errors.ts).
 */
export function ocsResponse(description: string, data: TSchema, headers?: Record<string, TSchema>): object {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: {
      "application/json": { schema: ocsEnvelope(data) },
      "application/xml": { schema: OCS_XML },
    },
  };
}

/** `format`: the OCS answer's format (query parameter every OCS route reads). */
export const OcsFormat = Type.Union([Type.String(), Type.Array(Type.String())], {
  description: "`json` or `xml`; any other value (or a repeated one) is ignored and the Accept header, then the default, decide.",
});
