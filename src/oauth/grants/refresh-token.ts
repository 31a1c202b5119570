import { sha256Hex } from "../../security/secrets.js";
import { OAuthError } from "../domain/errors.js";
import { isLegacyDesktopRefreshLoop } from "../domain/legacy-clients.js";
import { isExpired } from "../domain/lifetimes.js";
import { newTokens, type TokenResponse, tokenResponse } from "../tokens.js";
import type { GrantDeps, GrantInput } from "./types.js";

/** RFC 6749 §6 with rotation (research A.1.2, `refresh_token`; refresh expiry per issue 3). */
export const grantType = "refresh_token";
export const parameters: ReadonlySet<string> = new Set(["refresh_token"]);

const doesNotExist = () => new OAuthError("invalid_grant", "refresh token does not exist");

/**
 * Rotation: the presented refresh token and its access token die and a new pair is issued under the
 * same grant, all in one compare-and-set, so of concurrent refreshes with one token exactly one wins.
 * A rotated token is kept, marked, until the cleanup (the trace later reuse detection reads).
 */
export async function handle(deps: GrantDeps, input: GrantInput): Promise<TokenResponse | OAuthError> {
  // The legacy desktop loop breaker: these refresh errors go out with HTTP 200 for mirall 2.4.2.
  const refreshError = (error: OAuthError) => (isLegacyDesktopRefreshLoop(input.userAgent) ? error.soft() : error);

  const presented = input.params.refresh_token;
  if (presented === undefined) return refreshError(new OAuthError("invalid_request"));
  const record = await deps.grants.findRefreshToken(sha256Hex(presented));
  if (!record || record.rotated) return refreshError(doesNotExist());
  if (record.clientInternalId !== input.client.id) {
    return refreshError(new OAuthError("invalid_grant", "refresh grant client ids mismatch"));
  }
  if (isExpired(record.expiresAt, deps.now)) return refreshError(new OAuthError("invalid_grant", "refresh token expired"));

  deps.log.info(
    { event: "oauth2_refresh", client: input.client.clientId, uid: record.uid, grant: record.grantId },
    `A refresh token has been used by the client "${input.client.name}" to request an access token.`,
  );
  const user = await deps.users.find(record.uid);
  if (!user?.enabled) return new OAuthError("unauthorized_client", "user not enabled");

  const issued = newTokens(deps.now, deps.refreshTokenLifetime);
  if (!(await deps.grants.rotateRefreshToken(record, deps.now, issued.record))) return refreshError(doesNotExist());
  deps.log.info(
    { event: "oauth2_token_issued", client: input.client.clientId, uid: record.uid, grant: record.grantId },
    "access and refresh token issued by rotation",
  );
  return tokenResponse(issued.accessToken, issued.refreshToken as string, record.uid);
}
