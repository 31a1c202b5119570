import { sha256Hex } from "../../crypto/secrets.js";
import { OAuthError } from "../domain/errors.js";
import { isLegacyDesktopRefreshLoop } from "../domain/legacy-clients.js";
import { isExpired } from "../domain/lifetimes.js";
import type { RefreshTokenRecord } from "../ports.js";
import { newTokens, tokenResponse } from "../tokens.js";
import { withIdToken } from "./id-token.js";
import type { GrantDeps, GrantInput, GrantResult } from "./types.js";

/** RFC 6749 §6 with rotation (docs/upstream/owncloud-oauth2.md A.1.2, `refresh_token`), with refresh tokens that expire (`oauth2.refresh_token_lifetime`). */
export const grantType = "refresh_token";
/**
 * `scope` is not among them: the new token keeps the grant's scope, whatever a refresh asks for
 * (RFC 6749 §3.3 lets the server ignore the requested scope; the response's `scope` says what the
 * token has). The ownCloud desktop client sends its sign-in scopes with every refresh.
 */
export const parameters: ReadonlySet<string> = new Set(["refresh_token"]);

const doesNotExist = () => new OAuthError("invalid_grant", "refresh token does not exist");
const unknownToken = () => new OAuthError("invalid_grant", "refresh token does not exist", { guess: true });

/** What the grace window keeps of a rotation's answer (sealed; never stored in the clear). */
interface SealedPair {
  access_token: string;
  refresh_token: string;
}

function unseal(deps: GrantDeps, sealed: string): SealedPair | undefined {
  try {
    const pair = JSON.parse(deps.sealer.decrypt(sealed)) as Partial<SealedPair>;
    return typeof pair.access_token === "string" && typeof pair.refresh_token === "string"
      ? { access_token: pair.access_token, refresh_token: pair.refresh_token }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A refresh token presented after its rotation (RFC 9700 §4.14.2). Within the grace window
 * (`oauth2.refresh_reuse_grace`), while the pair that rotation issued is still unused, the same
 * pair is answered again (a client that lost the response, or concurrent retries). Otherwise it is
 * reuse: either the legitimate client or an attacker holds a stolen token, and the server cannot
 * tell which, so the whole grant is revoked (every access and refresh token of the family).
 */
async function reused(deps: GrantDeps, input: GrantInput, record: RefreshTokenRecord): Promise<GrantResult> {
  if (deps.refreshReuseGrace > 0) {
    const sealed = await deps.grants.findGracePair(record.id, deps.now);
    const pair = sealed === undefined ? undefined : unseal(deps, sealed);
    if (pair) {
      if (!record.userEnabled) return new OAuthError("unauthorized_client", "user not enabled");
      deps.log.info(
        { event: "oauth2_refresh_grace", client: input.client.clientId, uid: record.uid, grant: record.grantId },
        "a rotated refresh token was retried within the grace window: the same pair is sent again",
      );
      const response = await withIdToken(
        deps,
        input,
        tokenResponse(pair.access_token, pair.refresh_token, record.uid, record.scope),
        {
          uid: record.uid,
          identity: record,
          withNonce: false,
        },
      );
      return { response };
    }
  }
  const revoked = await deps.grants.revokeGrant(record.grantId);
  deps.log.warn(
    { event: "oauth2_refresh_reused", client: input.client.clientId, uid: record.uid, grant: record.grantId, revoked },
    "A rotated refresh token was used again: every token of its grant is revoked.",
  );
  deps.audit?.record("oauth.refresh_reuse_detected", {
    uid: record.uid,
    subject: { type: "client", id: input.client.clientId },
    detail: { name: input.client.name, grant: record.grantId, revoked },
  });
  return doesNotExist();
}

/**
 * Rotation: the presented refresh token and its access token die and a new pair is issued under the
 * same grant, all in one compare-and-set, so of concurrent refreshes with one token exactly one wins;
 * the others are reuse (above). A rotated token is kept, marked, until the cleanup (a week), so
 * its reuse can be traced to its grant.
 */
export async function handle(deps: GrantDeps, input: GrantInput): Promise<GrantResult> {
  // The legacy desktop loop breaker: these refresh errors go out with HTTP 200 for mirall 2.4.2.
  const refreshError = (error: OAuthError) => (isLegacyDesktopRefreshLoop(input.userAgent) ? error.soft() : error);

  const presented = input.params.refresh_token;
  if (presented === undefined) return refreshError(new OAuthError("invalid_request"));
  const tokenHash = sha256Hex(presented);
  const record = await deps.grants.findRefreshToken(tokenHash);
  if (!record) return refreshError(unknownToken());
  if (record.clientInternalId !== input.client.id) {
    return refreshError(new OAuthError("invalid_grant", "refresh grant client ids mismatch"));
  }
  // RFC 6749 §6: a client without a secret may refresh with client_id alone only what it obtained
  // as a public client (PKCE, no secret); anything a secret obtained needs the secret again.
  if (input.method === "none" && !record.publicClient) {
    return new OAuthError("invalid_client", undefined, { detail: "this grant needs client authentication" });
  }
  if (record.rotated) {
    const result = await reused(deps, input, record);
    return result instanceof OAuthError && result.code === "invalid_grant" ? refreshError(result) : result;
  }
  if (isExpired(record.expiresAt, deps.now)) return refreshError(new OAuthError("invalid_grant", "refresh token expired"));

  if (!record.userEnabled) return new OAuthError("unauthorized_client", "user not enabled");

  const issued = newTokens(deps.now, deps.refreshTokenLifetime);
  const refreshToken = issued.refreshToken as string;
  const grace =
    deps.refreshReuseGrace > 0
      ? {
          sealed: deps.sealer.encrypt(JSON.stringify({ access_token: issued.accessToken, refresh_token: refreshToken })),
          expiresAt: deps.now + deps.refreshReuseGrace,
        }
      : undefined;
  // OIDC Core §12.2: a refresh of an `openid` grant answers a new ID token too (same sub, auth_time;
  // no nonce). Signed before the write: a key that cannot sign leaves the refresh token unrotated.
  const response = await withIdToken(deps, input, tokenResponse(issued.accessToken, refreshToken, record.uid, record.scope), {
    uid: record.uid,
    identity: record,
    withNonce: false,
  });
  if (!(await deps.grants.rotateRefreshToken(record, deps.now, issued.record, grace))) {
    // A concurrent refresh with the same token won the compare-and-set: this one is a reuse.
    const result = await reused(deps, input, { ...record, rotated: true });
    return result instanceof OAuthError && result.code === "invalid_grant" ? refreshError(result) : result;
  }
  // ownCloud's log line (docs/upstream/owncloud-oauth2.md, Logging), once the rotation is done.
  deps.log.info(
    { event: "oauth2_refresh", client: input.client.clientId, uid: record.uid, grant: record.grantId },
    `A refresh token has been used by the client "${input.client.name}" to request an access token.`,
  );
  return { response };
}
