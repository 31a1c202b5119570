import { constantTimeEqual } from "../security/secrets.js";
import { OAuthError } from "./domain/errors.js";
import type { ClientStore, OAuthClient } from "./ports.js";

export interface AuthenticatedClient {
  client: OAuthClient;
  /**
   * `none`: a public client (RFC 6749 §2.1): client_id + code_verifier in the body (ownCloud's path,
   * proven by PKCE, RFC 7636), or client_id alone without any Authorization header (RFC 6749 §6
   * refresh, RFC 7009 revocation); each grant decides what `none` may do.
   */
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
 * - public client without a verifier: `client_id` in the body and no Authorization header at all;
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
    return client
      ? { client, method: "none" }
      : new OAuthError("invalid_client", undefined, { detail: "unknown client_id", guess: true });
  }
  if ((authorization === undefined || authorization === "") && body.client_id !== undefined) {
    const client = await clients.findByClientId(body.client_id);
    return client
      ? { client, method: "none" }
      : new OAuthError("invalid_client", undefined, { detail: "unknown client_id", guess: true });
  }
  const credentials = parseBasicAuthorization(authorization);
  if (!credentials) return new OAuthError("invalid_request", undefined, { detail: "no client credentials" });
  const client = await clients.findByClientId(credentials.id);
  if (!client)
    return new OAuthError("invalid_client", undefined, { basicAttempted: true, detail: "unknown client id", guess: true });
  if (!constantTimeEqual(credentials.secret, client.secret)) {
    return new OAuthError("invalid_client", undefined, { basicAttempted: true, detail: "wrong client secret", guess: true });
  }
  return { client, method: "basic" };
}

/**
 * RFC 7662 §2.1: only a confidential client proves itself, with HTTP Basic and its secret (compared
 * in constant time). Anything else is 401 `invalid_client` with a Basic challenge, so introspection
 * is no token-scanning oracle for anonymous callers.
 */
export async function authenticateConfidentialClient(
  clients: ClientStore,
  authorization: string | undefined,
): Promise<OAuthClient | OAuthError> {
  const credentials = parseBasicAuthorization(authorization);
  const refused = (detail: string) => new OAuthError("invalid_client", undefined, { basicAttempted: true, detail, guess: true });
  if (!credentials) return refused("no Basic credentials");
  const client = await clients.findByClientId(credentials.id);
  if (!client) return refused("unknown client id");
  if (client.secret === "" || !constantTimeEqual(credentials.secret, client.secret)) return refused("wrong client secret");
  return client;
}
