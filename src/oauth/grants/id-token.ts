import type { GrantIdentity } from "../ports.js";
import type { TokenResponse } from "../tokens.js";
import type { GrantDeps, GrantInput } from "./types.js";

/**
 * The one place a grant's token response gains its ID token (OIDC Core §3.1.3.3 for the code
 * exchange, §12.2 for a refresh, which carries no `nonce`). A grant without `openid` in its scope,
 * or a request without an origin, gets ownCloud's response unchanged.
 */
export async function withIdToken(
  deps: GrantDeps,
  input: GrantInput,
  response: TokenResponse,
  grant: { uid: string; identity: GrantIdentity; withNonce: boolean },
): Promise<TokenResponse> {
  if (!deps.idTokens || !input.origin) return response;
  const idToken = await deps.idTokens.mint({
    origin: input.origin,
    clientId: input.client.clientId,
    uid: grant.uid,
    identity: grant.identity,
    accessToken: response.access_token,
    withNonce: grant.withNonce,
  });
  return idToken === undefined ? response : { ...response, id_token: idToken };
}
