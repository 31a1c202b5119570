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
const unknownCode = () => new OAuthError("invalid_grant", "authorization code does not exist", { guess: true });

/**
 * RFC 6749 §4.1.2 / RFC 9700 §4.5: a code presented again after its redemption revokes its grant,
 * so every token issued from it (and from their rotations) dies. The client sees ownCloud's
 * "does not exist" (research A.1.4); the log says what happened.
 */
async function replayed(deps: GrantDeps, input: GrantInput, grantId: number): Promise<OAuthError> {
  const revoked = await deps.grants.revokeGrant(grantId);
  deps.log.warn(
    { event: "oauth2_code_replayed", client: input.client.clientId, grant: grantId, revoked },
    "An authorization code was used twice: the tokens issued from it are revoked.",
  );
  return doesNotExist();
}

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
  if (!record) return unknownCode();
  if (record.consumed) return replayed(deps, input, record.grantId);
  if (record.clientInternalId !== input.client.id) return new OAuthError("invalid_grant", "auth grant client ids mismatch");
  if (isExpired(record.expiresAt, deps.now)) return new OAuthError("invalid_grant", "auth grant expired");
  if (!redirectUriMatches(input.client.redirectUri, decodeSuppliedRedirectUri(redirectUri), input.client.allowSubdomains)) {
    return new OAuthError("invalid_grant", "auth grant redirect uri invalid");
  }
  // RFC 7636: without a secret, PKCE is the only proof of possession; a code without a challenge
  // cannot be redeemed by a public client.
  if (input.method === "none" && record.challenge === null) return new OAuthError("invalid_grant", "code verifier invalid");
  const pkce = verifyPkce(record.challengeMethod, record.challenge, verifier);
  if (pkce === "unsupported_method") {
    return new OAuthError("invalid_request", `Code challenge method ${record.challengeMethod} not supported`);
  }
  if (pkce === "invalid") return new OAuthError("invalid_grant", "code verifier invalid");

  // ownCloud's log line (research, Logging), written once the outcome is known (one line per exchange).
  const logRedeemed = (outcome: "tokens issued" | "user not enabled") =>
    deps.log.info(
      { event: "oauth2_code_redeemed", client: input.client.clientId, uid: record.uid, grant: record.grantId, outcome },
      `An authorization code has been used by the client "${input.client.name}" to request an access token.`,
    );
  if (!record.userEnabled) {
    // ownCloud deletes the code before it checks the user: the code is spent either way.
    await deps.grants.redeemCode(codeHash, deps.now, undefined);
    logRedeemed("user not enabled");
    return new OAuthError("unauthorized_client", "user not enabled");
  }
  const issued = newTokens(deps.now, deps.refreshTokenLifetime);
  const redeemed = await deps.grants.redeemCode(codeHash, deps.now, issued.record, { publicClient: input.method === "none" });
  // Lost the compare-and-set to a concurrent redemption of the same code: that is a replay too.
  if (!redeemed) return replayed(deps, input, record.grantId);
  logRedeemed("tokens issued");
  return tokenResponse(issued.accessToken, issued.refreshToken as string, record.uid);
}
