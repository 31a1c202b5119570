import { sha256Hex } from "../../security/secrets.js";
import { OAuthError } from "../domain/errors.js";
import { isExpired } from "../domain/lifetimes.js";
import { verifyPkce } from "../domain/pkce.js";
import { decodeSuppliedRedirectUri, redirectUriMatches } from "../domain/redirect-uri.js";
import { newTokens, type TokenResponse, tokenResponse } from "../tokens.js";
import type { GrantDeps, GrantInput } from "./types.js";

/** RFC 6749 §4.1.3, in ownCloud's order (research A.1.2, `authorization_code`). */
export const grantType = "authorization_code";
export const parameters: ReadonlySet<string> = new Set(["code", "redirect_uri", "code_verifier"]);

const doesNotExist = () => new OAuthError("invalid_grant", "authorization code does not exist");

/**
 * The rules run in order and the first failure wins; single use comes last, so only a caller who
 * proved possession (client, redirect URI, PKCE) can burn a code. A failed redemption leaves the
 * code in place (research A.1.4); the cleanup removes it a week after expiry.
 */
export async function handle(deps: GrantDeps, input: GrantInput): Promise<TokenResponse | OAuthError> {
  const { code, redirect_uri: redirectUri, code_verifier: verifier } = input.params;
  if (code === undefined || redirectUri === undefined) return new OAuthError("invalid_request");

  const codeHash = sha256Hex(code);
  const record = await deps.grants.findCode(codeHash);
  if (!record || record.consumed) return doesNotExist();
  if (record.clientInternalId !== input.client.id) return new OAuthError("invalid_grant", "auth grant client ids mismatch");
  if (isExpired(record.expiresAt, deps.now)) return new OAuthError("invalid_grant", "auth grant expired");
  if (!redirectUriMatches(input.client.redirectUri, decodeSuppliedRedirectUri(redirectUri), input.client.allowSubdomains)) {
    return new OAuthError("invalid_grant", "auth grant redirect uri invalid");
  }
  const pkce = verifyPkce(record.challengeMethod, record.challenge, verifier);
  if (pkce === "unsupported_method") {
    return new OAuthError("invalid_request", `Code challenge method ${record.challengeMethod} not supported`);
  }
  if (pkce === "invalid") return new OAuthError("invalid_grant", "code verifier invalid");

  deps.log.info(
    { event: "oauth2_code_redeemed", client: input.client.clientId, uid: record.uid, grant: record.grantId },
    `An authorization code has been used by the client "${input.client.name}" to request an access token.`,
  );
  const user = await deps.users.find(record.uid);
  if (!user?.enabled) {
    // ownCloud deletes the code before it checks the user: the code is spent either way.
    await deps.grants.redeemCode(codeHash, deps.now, undefined);
    return new OAuthError("unauthorized_client", "user not enabled");
  }
  const issued = newTokens(deps.now, deps.refreshTokenLifetime);
  if (!(await deps.grants.redeemCode(codeHash, deps.now, issued.record))) return doesNotExist();
  deps.log.info(
    { event: "oauth2_token_issued", client: input.client.clientId, uid: record.uid, grant: record.grantId },
    "access and refresh token issued",
  );
  return tokenResponse(issued.accessToken, issued.refreshToken as string, record.uid);
}
