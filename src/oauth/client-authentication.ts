import { constantTimeEqual } from "../crypto/secrets.js";
import { OAuthError } from "./domain/errors.js";
import { stringParam } from "./params.js";
import type { ClientStore, OAuthClient } from "./ports.js";
import type { TokenRequest } from "./token-request.js";

export interface AuthenticatedClient {
  client: OAuthClient;
  /**
   * How the client proved itself (RFC 6749 §2.3.1): `basic`, its secret in the Authorization header
   * (`client_secret_basic`); `post`, its secret in the body (`client_secret_post`); `none`, a public
   * client (RFC 6749 §2.1): client_id + code_verifier in the body (ownCloud's path, proven by PKCE,
   * RFC 7636), or client_id alone (RFC 6749 §6 refresh of a public grant, RFC 7009 revocation);
   * each grant decides what `none` may do.
   */
  method: "basic" | "post" | "none";
}

/** RFC 7617: `Basic base64(id:secret)`, split at the first colon; the values as sent. */
export function parseBasicAuthorization(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^basic\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** application/x-www-form-urlencoded decoding (`+` is a space); undefined when malformed. */
function formDecoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replaceAll("+", " "));
  } catch {
    return undefined;
  }
}

/**
 * The readings of Basic credentials: RFC 6749 §2.3.1 has the client form-urlencode its id and
 * secret before Base64 (OpenID-certified relying parties such as mod_auth_openidc do); ownCloud and
 * its clients do not. The encoded reading comes first, the raw one second when it differs, so a
 * secret with `+ / = % : &` works either way.
 */
function basicReadings(credentials: { id: string; secret: string }): Array<{ id: string; secret: string }> {
  const id = formDecoded(credentials.id);
  const secret = formDecoded(credentials.secret);
  const encoded = id !== undefined && secret !== undefined ? [{ id, secret }] : [];
  const raw = encoded.some((reading) => reading.id === credentials.id && reading.secret === credentials.secret)
    ? []
    : [credentials];
  return [...encoded, ...raw];
}

/**
 * A client's Basic credentials checked (every reading, secrets compared in constant time): the
 * client, or why not. One rule for the token, revocation and introspection endpoints.
 */
async function basicClient(
  clients: Pick<ClientStore, "findByClientId">,
  credentials: { id: string; secret: string },
): Promise<OAuthClient | "unknown client id" | "wrong client secret"> {
  let known = false;
  for (const reading of basicReadings(credentials)) {
    const client = await clients.findByClientId(reading.id);
    if (!client) continue;
    known = true;
    if (client.secret !== "" && constantTimeEqual(reading.secret, client.secret)) return client;
  }
  return known ? "wrong client secret" : "unknown client id";
}

/**
 * docs/upstream/owncloud-oauth2.md A.1.2 step 2, before the grant type is looked at:
 * - an HTTP Basic header is always verified when present (`basicClient`: unknown id or wrong
 *   secret → invalid_client, 401 with a Basic challenge, RFC 6749 §5.2);
 * - credentials repeated in the body must agree with it: the ownCloud desktop client sends
 *   `client_id` and `client_secret` in the Basic header and in the body at once
 *   (docs/upstream/desktop-clients.md, ownCloud client §3), so both are accepted together, but a body
 *   `client_id` naming another client or a body `client_secret` that is not the secret is refused;
 * - without a Basic header, `client_id` and `client_secret` in the body are `client_secret_post`
 *   (RFC 6749 §2.3.1): a wrong secret is invalid_client, 401 like a wrong Basic secret;
 * - `client_id` alone is the public path (with `code_verifier` on ownCloud's PKCE path, or alone
 *   for RFC 6749 §6 refresh and RFC 7009 revocation);
 * - nothing at all → invalid_request.
 */
export async function authenticateClient(
  clients: Pick<ClientStore, "findByClientId">,
  body: { client_id?: string | undefined; client_secret?: string | undefined; code_verifier?: string | undefined },
  authorization: string | undefined,
): Promise<AuthenticatedClient | OAuthError> {
  const refused = (detail: string, challenged: boolean) =>
    new OAuthError("invalid_client", undefined, { challenged, detail, guess: true });
  const bodySecretDisagrees = (client: OAuthClient) =>
    body.client_secret !== undefined && !constantTimeEqual(body.client_secret, client.secret);

  if (authorization !== undefined && authorization !== "") {
    const credentials = parseBasicAuthorization(authorization);
    if (!credentials) return new OAuthError("invalid_request", undefined, { detail: "malformed Authorization header" });
    const client = await basicClient(clients, credentials);
    if (typeof client === "string") return refused(client, true);
    if (body.client_id !== undefined && body.client_id !== client.clientId) {
      return refused("body client_id differs from the Basic header", true);
    }
    if (bodySecretDisagrees(client)) return refused("body client_secret differs from the Basic header", true);
    return { client, method: "basic" };
  }
  if (body.client_id === undefined) return new OAuthError("invalid_request", undefined, { detail: "no client credentials" });
  const client = await clients.findByClientId(body.client_id);
  if (!client) return refused("unknown client_id", false);
  if (body.client_secret === undefined) return { client, method: "none" };
  if (client.secret === "" || bodySecretDisagrees(client)) return refused("wrong client_secret in the body", true);
  return { client, method: "post" };
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
 * RFC 7662 §2.1: only a confidential client proves itself, with its secret (`client_secret_basic` or
 * `client_secret_post`, the rules of authenticateClient). Anything else, a public client's
 * client_id alone included, is 401 `invalid_client` with a Basic challenge, so introspection is no
 * token-scanning oracle for anonymous callers.
 */
export async function authenticateConfidentialClient(
  clients: Pick<ClientStore, "findByClientId">,
  request: TokenRequest,
): Promise<OAuthClient | OAuthError> {
  const authenticated = await authenticateRequestClient(clients, request);
  if (authenticated instanceof OAuthError) {
    return new OAuthError("invalid_client", undefined, {
      challenged: true,
      detail: authenticated.detail,
      guess: authenticated.guess,
    });
  }
  if (authenticated.method === "none") {
    return new OAuthError("invalid_client", undefined, { challenged: true, detail: "no client secret" });
  }
  return authenticated.client;
}
