import { constantTimeEqual } from "../security/secrets.js";
import { OAuthError } from "./domain/errors.js";
import type { ClientStore, OAuthClient } from "./ports.js";

export interface AuthenticatedClient {
  client: OAuthClient;
  /** `none`: the public path (client_id + code_verifier in the body, proven by PKCE, RFC 7636). */
  method: "basic" | "none";
}

/** RFC 7617: `Basic base64(id:secret)`, split at the first colon (ownCloud does not URL-decode). */
export function parseBasicAuthorization(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^basic\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/**
 * research A.1.2 step 2, before the grant type is looked at:
 * - public path: `client_id` and `code_verifier` both in the body → the client by id, no secret;
 * - otherwise HTTP Basic is mandatory (missing → invalid_request); unknown id or wrong secret →
 *   invalid_client, answered 401 with a Basic challenge (RFC 6749 §5.2). The secret is compared in
 *   constant time; `client_secret` in the body is never read.
 */
export async function authenticateClient(
  clients: ClientStore,
  body: { client_id?: string | undefined; code_verifier?: string | undefined },
  authorization: string | undefined,
): Promise<AuthenticatedClient | OAuthError> {
  if (body.client_id !== undefined && body.code_verifier !== undefined) {
    const client = await clients.findByClientId(body.client_id);
    return client ? { client, method: "none" } : new OAuthError("invalid_client", undefined, { detail: "unknown client_id" });
  }
  const credentials = parseBasicAuthorization(authorization);
  if (!credentials) return new OAuthError("invalid_request", undefined, { detail: "no client credentials" });
  const client = await clients.findByClientId(credentials.id);
  if (!client) return new OAuthError("invalid_client", undefined, { basicAttempted: true, detail: "unknown client id" });
  if (!constantTimeEqual(credentials.secret, client.secret)) {
    return new OAuthError("invalid_client", undefined, { basicAttempted: true, detail: "wrong client secret" });
  }
  return { client, method: "basic" };
}
