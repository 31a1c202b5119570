import { Type } from "typebox";
import { REQUIRED_SCOPES } from "../../oauth/domain/scope.js";
import { emptyResponse, MAINTENANCE_RESPONSE, SECURITY, type SecurityRequirements } from "./common.js";

/**
 * Forward authentication for reverse proxies (docs/deployment.md "Forward authentication"): what `GET
 * …/api/v1/auth-request` answers. Every answer has an empty body: a proxy reads only the status and the
 * headers.
 */

const NO_STORE_HEADERS = {
  "cache-control": Type.Literal("no-store"),
  pragma: Type.Literal("no-cache"),
};

/** A bearer token or HTTP Basic; never the session cookie. */
const FORWARDED_CREDENTIALS: SecurityRequirements = [{ [SECURITY.bearer]: [] }, { [SECURITY.appPassword]: [] }];

export const forwardAuthRouteSchema = {
  tags: ["Forward authentication"],
  summary: "Who the original request's Authorization header is (nginx auth_request, Caddy forward_auth, Traefik ForwardAuth)",
  description:
    "Reads the `Authorization` header the proxy passes on from the original request: a Bearer access token, or HTTP Basic with an app password, or with the account password unless `token_auth_enforced`. The session cookie is ignored. HEAD answers the same without a body.",
  security: FORWARDED_CREDENTIALS,
  querystring: Type.Object({
    scope: Type.Optional(
      Type.Union(
        REQUIRED_SCOPES.map((name) => Type.Literal(name)),
        {
          description:
            "The scope a bearer token needs for this site (default `files`); credentials other than tokens have them all.",
        },
      ),
    ),
    group: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], {
        description:
          "The groups whose members may use this site (repeated, or comma-separated); a user in none of them gets 403. Absent: every user.",
      }),
    ),
  }),
  response: {
    200: {
      ...emptyResponse("Authenticated: the proxy forwards the request with the user's headers."),
      headers: {
        ...NO_STORE_HEADERS,
        "x-keystream-user": Type.String({ description: "The user id (uid)." }),
        "x-keystream-display-name": Type.String({
          description: "The display name, UTF-8 percent-encoded (RFC 3986 §2.1; decode with decodeURIComponent or rawurldecode).",
        }),
      },
    },
    401: {
      ...emptyResponse(
        "No credentials, or refused ones (unknown, revoked or expired token, wrong password, disabled user, password login forbidden, malformed header).",
      ),
      headers: {
        ...NO_STORE_HEADERS,
        "www-authenticate": Type.String({
          description:
            '`Bearer realm="Keystream"`, with `error="invalid_token"` after a refused bearer token (RFC 6750 §3.1): the challenge desktop clients choose OAuth by.',
        }),
      },
    },
    403: {
      ...emptyResponse(
        "A bearer token without the scope the site requires (RFC 6750 §3.1 `insufficient_scope`, with the challenge), or a user in none of the groups the site requires (no challenge).",
      ),
      headers: {
        ...NO_STORE_HEADERS,
        "www-authenticate": Type.String({ description: '`Bearer realm="Keystream", error="insufficient_scope", scope="files"`' }),
      },
    },
    429: {
      ...emptyResponse("Too many failed password attempts from this address or for this user (the login throttle)."),
      headers: { ...NO_STORE_HEADERS, "retry-after": Type.String({ description: "Seconds" }) },
    },
    ...MAINTENANCE_RESPONSE,
  },
};
