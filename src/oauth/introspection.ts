import { sha256Hex } from "../crypto/secrets.js";
import { authenticateConfidentialClient } from "./client-authentication.js";
import { OAuthError } from "./domain/errors.js";
import { isExpired } from "./domain/lifetimes.js";
import { ACCOUNT_SCOPE } from "./domain/scope.js";
import type { ClientStore, GrantStore, OAuthClient } from "./ports.js";
import type { TokenRequest } from "./token-endpoint.js";

/** RFC 7662 §2.2: `{active:false}` and nothing else, or the active token's claims. */
export type IntrospectionResponse =
  | { active: false }
  | {
      active: true;
      /** RFC 7662 §2.2: what the token may do (src/oauth/domain/scope.ts), for a resource server to decide by. */
      scope: string;
      client_id: string;
      username: string;
      sub: string;
      exp: number;
      iat: number;
      /** `Bearer` for an access token; a refresh token has no RFC 6749 §7.1 type and gets `refresh_token`. */
      token_type: "Bearer" | "refresh_token";
      /** RFC 7662 §2.2: the issuer, the same value as the metadata's and RFC 9207's `iss`. */
      iss?: string;
    };

const INACTIVE: IntrospectionResponse = { active: false };

/** A resource server may introspect any token; any other client only the tokens issued to itself. */
export function mayIntrospect(caller: Pick<OAuthClient, "clientId" | "resourceServer">, tokenClientId: string): boolean {
  return caller.resourceServer || caller.clientId === tokenClientId;
}

/**
 * RFC 7662 token introspection (`POST …/api/v1/introspect`), for resource servers next to Keystream:
 * - the caller is a confidential client authenticated with HTTP Basic (§2.1), else 401 invalid_client;
 * - `token` is required (400 invalid_request); `token_type_hint` only orders the lookup;
 * - the caller learns about the tokens issued to itself; only a client an administrator marked as
 *   resource server (`resource-server`) about any client's (the seeded clients' secrets are
 *   public, so "a confidential client" alone is anyone). Another client's token is `active:false`,
 *   exactly like an unknown one (§2.2: a token "the protected resource is not allowed to
 *   introspect" MUST be answered inactive), so a caller cannot even tell that the token exists;
 * - an access token is active until it expires; a refresh token until it expires or is rotated;
 *   either is inactive once revoked, or while its user is disabled or gone.
 */
export async function introspectToken(
  clients: ClientStore,
  grants: GrantStore,
  users: { find(uid: string): Promise<{ enabled: boolean } | undefined> },
  now: number,
  request: TokenRequest,
): Promise<IntrospectionResponse | OAuthError> {
  const caller = await authenticateConfidentialClient(clients, request.authorization);
  if (caller instanceof OAuthError) return caller;
  const token = request.body.token;
  if (typeof token !== "string" || token === "") return new OAuthError("invalid_request", "the token parameter is required");
  const hash = sha256Hex(token);

  const asAccess = async () => {
    const access = await grants.findAccessToken(hash);
    if (!access || isExpired(access.expiresAt, now)) return undefined;
    return {
      uid: access.uid,
      clientId: access.clientId,
      scope: access.scope,
      exp: access.expiresAt,
      iat: access.createdAt,
      type: "Bearer" as const,
    };
  };
  const asRefresh = async () => {
    const refresh = await grants.findRefreshToken(hash);
    if (!refresh || refresh.rotated || isExpired(refresh.expiresAt, now)) return undefined;
    return {
      uid: refresh.uid,
      clientId: refresh.clientId,
      scope: refresh.scope,
      exp: refresh.expiresAt,
      iat: refresh.createdAt,
      type: "refresh_token" as const,
    };
  };
  const order = request.body.token_type_hint === "refresh_token" ? [asRefresh, asAccess] : [asAccess, asRefresh];
  for (const lookup of order) {
    const found = await lookup();
    if (!found) continue;
    if (!mayIntrospect(caller, found.clientId)) return INACTIVE;
    const user = await users.find(found.uid);
    if (!user?.enabled) return INACTIVE;
    return {
      active: true,
      scope: found.scope ?? ACCOUNT_SCOPE,
      client_id: found.clientId,
      username: found.uid,
      sub: found.uid,
      exp: found.exp,
      iat: found.iat,
      token_type: found.type,
      ...(request.origin ? { iss: request.origin.issuer } : {}),
    };
  }
  return INACTIVE;
}
