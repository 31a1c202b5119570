import type { CodeRecord } from "../ports.js";
import { newTokens, type TokenResponse, tokenResponse } from "../tokens.js";
import { withIdToken } from "./id-token.js";
import type { GrantDeps, GrantInput } from "./types.js";

/**
 * The tokens for a code its grant has checked (an authorization code, RFC 6749 §4.1.3, or the code
 * an approved device authorization holds, RFC 8628 §3.5): access and refresh token with the grant's
 * scope, and an ID token when `openid` was granted, signed before the write, so that a key that
 * cannot sign leaves the code unredeemed rather than spent for nothing. GrantStore.redeemCode then
 * commits the redemption, the tokens and the throttle settlement at once. Undefined when a
 * concurrent redemption of the same code won the compare-and-set.
 */
export async function issueForCode(
  deps: GrantDeps,
  input: GrantInput,
  codeHash: string,
  code: CodeRecord,
  withNonce: boolean,
): Promise<TokenResponse | undefined> {
  const issued = newTokens(deps.now, deps.refreshTokenLifetime);
  const response = await withIdToken(
    deps,
    input,
    tokenResponse(issued.accessToken, issued.refreshToken as string, code.uid, code.scope),
    { uid: code.uid, identity: code, withNonce },
  );
  const redeemed = await deps.grants.redeemCode(codeHash, deps.now, issued.record, { publicClient: input.method === "none" });
  return redeemed ? response : undefined;
}
