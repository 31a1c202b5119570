import type { FastifyInstance } from "fastify";
import { parseBasicAuthorization } from "../../oauth/client-authentication.js";
import { constantTimeEqual } from "../../security/secrets.js";
import { noStore } from "../oauth-errors.js";

export const INTROSPECTION_PATH = "/index.php/apps/oauth2/api/v1/introspect";

/**
 * RFC 7662 token introspection, minimal: how a resource server next to Keystream (a WebDAV file
 * server, test/clients/webdav-companion.ts) checks the bearer tokens it is shown.
 *
 * - The caller authenticates as a registered confidential client with HTTP Basic (§2.1); without
 *   that: 401 `invalid_client` with a Basic challenge, so the endpoint is no token-scanning oracle.
 * - `token` (form field) is looked up as an access token through the OAuth service's own bearer
 *   lookup, the one the authentication chain uses; `token_type_hint` is accepted and ignored.
 * - Unknown, expired, revoked, malformed, or belonging to a disabled user: `{"active":false}` and
 *   nothing else (§2.2). Active: `active`, `client_id`, `username`, `sub`, `token_type`.
 */
export async function oauthIntrospectRoutes(app: FastifyInstance): Promise<void> {
  app.post(INTROSPECTION_PATH, async (request, reply) => {
    const { oauth, users } = app.services;
    noStore(reply);
    const credentials = parseBasicAuthorization(request.headers.authorization);
    const caller = credentials ? (await oauth.clients.list()).find((c) => c.clientId === credentials.id) : undefined;
    if (!credentials || !caller || !caller.secret || !constantTimeEqual(credentials.secret, caller.secret)) {
      return reply
        .status(401)
        .header("www-authenticate", 'Basic realm="Keystream", charset="UTF-8"')
        .send({ error: "invalid_client" });
    }
    const body = request.body as Record<string, unknown> | undefined;
    const token = typeof body?.token === "string" ? body.token : undefined;
    if (token === undefined || token === "") {
      return reply.status(400).send({ error: "invalid_request", error_description: "the token parameter is required" });
    }
    const resolved = await oauth.resolve(token);
    const user = resolved ? await users.find(resolved.uid) : undefined;
    if (!resolved || !user?.enabled) return { active: false };
    return { active: true, client_id: resolved.clientId, username: user.uid, sub: user.uid, token_type: "Bearer" };
  });
}
