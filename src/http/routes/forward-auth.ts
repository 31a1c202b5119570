import type { FastifyInstance } from "fastify";
import { parseGroupList } from "../../groups/domain/group-id.js";
import type { RequiredScope } from "../../oauth/domain/scope.js";
import { noStore } from "../oauth-errors.js";
import {
  authenticateAuthorizationHeader,
  bearerChallenge,
  insufficientScopeChallenge,
  principalAllows,
  SECOND_FACTOR_REASON_HEADER,
} from "../plugins/authentication.js";
import { forwardAuthRouteSchema } from "../schemas/forward-auth.js";

export const FORWARD_AUTH_PATH = "/index.php/apps/keystream/api/v1/auth-request";
/** The authenticated user's id, for the proxy to pass on to the file server. */
export const USER_HEADER = "x-keystream-user";
/** What a site behind forward authentication requires of a token when its URL names no scope: the file server's. */
export const DEFAULT_SITE_SCOPE: RequiredScope = "files";
/** The user's display name, UTF-8 percent-encoded: a header value is ASCII (RFC 9110 §5.5). */
export const DISPLAY_NAME_HEADER = "x-keystream-display-name";

/**
 * Forward authentication (docs/deployment.md "Forward authentication"): a reverse proxy
 * asks, for each request to a file server, who the request's `Authorization` header is, and lets
 * it through only on a 200. The decision is the one authentication chain every API route uses
 * (plugins/authentication.ts), cookie aside, with its throttle of account-password attempts; so it
 * costs what a UserInfo call costs, and a credential is accepted here exactly when the API accepts it.
 * Bodies are empty: the proxy reads the status and the headers (nginx passes a 401's
 * WWW-Authenticate on to the client, Caddy and Traefik the whole answer).
 *
 * A bearer token must have the scope the site requires (src/oauth/domain/scope.ts): `files` unless
 * the proxy's URL names another (`?scope=…`, one per site); else 403 `insufficient_scope`, not 401,
 * so the proxy does not ask the client for other credentials.
 *
 * A site may also require groups (`?group=editors`, several as `group=a&group=b` or `group=a,b`):
 * a user in none of them gets 403, not 401, for the same reason (docs/deployment.md, per site).
 */
/** The groups a site's URL requires, one or more `group` parameters, each possibly comma-separated. */
function requiredGroups(given: string | string[] | undefined): string[] {
  if (given === undefined) return [];
  return (Array.isArray(given) ? given : [given]).flatMap((value) => parseGroupList(value));
}

export async function forwardAuthRoutes(app: FastifyInstance): Promise<void> {
  // GET; Fastify answers HEAD from the same handler, without the body.
  app.get(FORWARD_AUTH_PATH, { schema: forwardAuthRouteSchema }, async (request, reply) => {
    noStore(reply);
    const query = request.query as { scope?: RequiredScope; group?: string | string[] };
    const required = query.scope ?? DEFAULT_SITE_SCOPE;
    const groups = requiredGroups(query.group);
    const result = await authenticateAuthorizationHeader(request);
    if ("principal" in result) {
      if (!principalAllows(result.principal, required)) {
        return reply.status(403).header("www-authenticate", insufficientScopeChallenge(required)).send();
      }
      const { user } = result.principal;
      if (groups.length > 0 && !(await app.services.groups.groupsOf(user.uid)).some((gid) => groups.includes(gid))) {
        request.log.info(
          { event: "forward_auth_refused_by_group", uid: user.uid, groups },
          "forward auth refused: the user is in none of the site's groups",
        );
        return reply.status(403).send();
      }
      return reply
        .status(200)
        .header(USER_HEADER, user.uid)
        .header(DISPLAY_NAME_HEADER, encodeURIComponent(user.displayName))
        .send();
    }
    if ("failure" in result && result.failure === "throttled") {
      return reply
        .status(429)
        .header("retry-after", String(result.retryAfterSeconds ?? 60))
        .send();
    }
    // The account password of a user with a second factor: the reason goes with the refusal.
    if ("failure" in result && result.failure === "second_factor_required") {
      reply.header(SECOND_FACTOR_REASON_HEADER, "second-factor-required");
    }
    return reply.status(401).header("www-authenticate", bearerChallenge(result)).send();
  });
}
