import { constantTimeEqual } from "../crypto/secrets.js";
import { OAuthError } from "./domain/errors.js";
import { stringParam } from "./params.js";
import type { ClientStore, OAuthClient } from "./ports.js";
import type { TokenRequest } from "./token-request.js";

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
 * docs/upstream/owncloud-oauth2.md A.1.2 step 2, before the grant type is looked at:
 * - an HTTP Basic header is always verified when present (unknown id or wrong secret →
 *   invalid_client, 401 with a Basic challenge, RFC 6749 §5.2; the secret compared in constant time);
 * - credentials repeated in the body must agree with it: the ownCloud desktop client sends
 *   `client_id` and `client_secret` in the Basic header and in the body at once
 *   (docs/upstream/desktop-clients.md, ownCloud client §3), so both are accepted together, but a body
 *   `client_id` naming another client or a body `client_secret` that is not the secret is refused;
 * - without a Basic header, the public path: `client_id` in the body (with `code_verifier` on
 *   ownCloud's PKCE path, or alone for RFC 6749 §6 refresh and RFC 7009 revocation); a body
 *   `client_secret` there must be the client's secret too (a client never authenticates by it
 *   alone: `client_secret_post` is not offered);
 * - nothing at all → invalid_request.
 */
export async function authenticateClient(
  clients: Pick<ClientStore, "findByClientId">,
  body: { client_id?: string | undefined; client_secret?: string | undefined; code_verifier?: string | undefined },
  authorization: string | undefined,
): Promise<AuthenticatedClient | OAuthError> {
  const refused = (detail: string, basicAttempted: boolean) =>
    new OAuthError("invalid_client", undefined, { basicAttempted, detail, guess: true });
  const bodySecretDisagrees = (client: OAuthClient) =>
    body.client_secret !== undefined && !constantTimeEqual(body.client_secret, client.secret);

  if (authorization !== undefined && authorization !== "") {
    const credentials = parseBasicAuthorization(authorization);
    if (!credentials) return new OAuthError("invalid_request", undefined, { detail: "malformed Authorization header" });
    const client = await clients.findByClientId(credentials.id);
    if (!client) return refused("unknown client id", true);
    if (!constantTimeEqual(credentials.secret, client.secret)) return refused("wrong client secret", true);
    if (body.client_id !== undefined && body.client_id !== credentials.id) {
      return refused("body client_id differs from the Basic header", true);
    }
    if (bodySecretDisagrees(client)) return refused("body client_secret differs from the Basic header", true);
    return { client, method: "basic" };
  }
  if (body.client_id === undefined) return new OAuthError("invalid_request", undefined, { detail: "no client credentials" });
  const client = await clients.findByClientId(body.client_id);
  if (!client) return refused("unknown client_id", false);
  if (bodySecretDisagrees(client)) return refused("wrong client_secret in the body", false);
  return { client, method: "none" };
}

/**
 * The client id authenticateClient looks up for this request: the Basic header's when the request
 * has an Authorization header (undefined when it is malformed: nothing is looked up), else the
 * body's `client_id`. Lets the token endpoint read that client ahead, with the code (read-ahead.ts).
 */
export function namedClientId(request: TokenRequest): string | undefined {
  const { authorization } = request;
  if (authorization !== undefined && authorization !== "") return parseBasicAuthorization(authorization)?.id;
  return stringParam(request.body, "client_id");
}

/** The same, reading the credentials a token, revocation or introspection request carries. */
export function authenticateRequestClient(
  clients: Pick<ClientStore, "findByClientId">,
  request: TokenRequest,
): Promise<AuthenticatedClient | OAuthError> {
  return authenticateClient(
    clients,
    {
      client_id: stringParam(request.body, "client_id"),
      client_secret: stringParam(request.body, "client_secret"),
      code_verifier: stringParam(request.body, "code_verifier"),
    },
    request.authorization,
  );
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
