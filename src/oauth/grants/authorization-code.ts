import { sha256Hex } from "../../crypto/secrets.js";
import { OAuthError } from "../domain/errors.js";
import { isExpired } from "../domain/lifetimes.js";
import { hasChallenge, verifyPkce } from "../domain/pkce.js";
import { decodeSuppliedRedirectUri, redirectUriMatches } from "../domain/redirect-uri.js";
import type { CodeRecord } from "../ports.js";
import { issueForCode } from "./code-redemption.js";
import type { GrantDeps, GrantInput, GrantResult } from "./types.js";

/** RFC 6749 §4.1.3, in ownCloud's order (docs/upstream/owncloud-oauth2.md A.1.2, `authorization_code`). */
export const grantType = "authorization_code";
export const parameters: ReadonlySet<string> = new Set(["code", "redirect_uri", "code_verifier"]);

const doesNotExist = () => new OAuthError("invalid_grant", "authorization code does not exist");
const unknownCode = () => new OAuthError("invalid_grant", "authorization code does not exist", { guess: true });

/**
 * RFC 6749 §4.1.2 / RFC 9700 §4.5: a code presented again after its redemption revokes its grant,
 * so every token issued from it (and from their rotations) dies. The client sees ownCloud's
 * "does not exist" (docs/upstream/owncloud-oauth2.md A.1.4); the log says what happened.
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
 * A used code presented without the proof a redemption needs (another client, no or a wrong PKCE
 * verifier, another redirect URI, past its lifetime): it may have leaked from a browser history, a
 * log or a Referer, so it revokes nothing: otherwise anyone who saw a code could revoke its grant. The answer is the one for any
 * used code, which ownCloud deletes: "does not exist", so it tells nothing about the code either.
 */
function unprovenReplay(deps: GrantDeps, input: GrantInput, grantId: number, refusal: OAuthError): OAuthError {
  deps.log.warn(
    { event: "oauth2_code_replay_unproven", client: input.client.clientId, grant: grantId, refusal: refusal.description },
    "A used authorization code was presented without its client's proof: nothing is revoked.",
  );
  return doesNotExist();
}

/**
 * RFC 6749 §4.1.3: the redirect URI must still match the client's registration (ownCloud's check)
 * and be identical to the one the authorization request used, stored with the code (both decoded
 * once more, as at the authorization endpoint). A code issued before migration 0007 has none stored:
 * it cannot show which URI it was issued for, so it is refused (docs/decisions.md).
 */
function redirectUriAsAuthorized(input: GrantInput, record: CodeRecord, supplied: string): boolean {
  const decoded = decodeSuppliedRedirectUri(supplied);
  return (
    record.redirectUri !== null &&
    decoded === record.redirectUri &&
    redirectUriMatches(input.client.redirectUri, decoded, input.client.allowSubdomains)
  );
}

/**
 * What a redemption must prove, in ownCloud's order (docs/upstream/owncloud-oauth2.md A.1.2), first failure wins: the code
 * is this client's, within its lifetime, for this redirect URI, and PKCE holds. The client itself was
 * authenticated before (Basic with its secret, or `none`: client_id alone), so for the public path
 * the PKCE verifier is the proof of possession (RFC 7636): a code without a challenge cannot be
 * redeemed by it. Undefined when everything holds.
 */
function refusal(deps: GrantDeps, input: GrantInput, record: CodeRecord, redirectUri: string): OAuthError | undefined {
  if (record.clientInternalId !== input.client.id) return new OAuthError("invalid_grant", "auth grant client ids mismatch");
  if (isExpired(record.expiresAt, deps.now)) return new OAuthError("invalid_grant", "auth grant expired");
  if (!redirectUriAsAuthorized(input, record, redirectUri)) {
    return new OAuthError("invalid_grant", "auth grant redirect uri invalid");
  }
  // A client that sent no secret is public: without a challenge on the code, nothing proves it
  // (RFC 7636 §1). That is the client's authentication failing, never a PKCE error.
  if (input.method === "none" && !hasChallenge(record.challenge)) {
    return new OAuthError("invalid_client", undefined, { challenged: true, detail: "no client secret and no PKCE challenge" });
  }
  const pkce = verifyPkce(record.challengeMethod, record.challenge, input.params.code_verifier);
  if (pkce === "unsupported_method") {
    return new OAuthError("invalid_request", `Code challenge method ${record.challengeMethod} not supported`);
  }
  // RFC 7636 §4.6: a verifier that does not match, or is not 43–128 unreserved characters.
  if (pkce === "invalid") return new OAuthError("invalid_grant", "code verifier invalid");
  return undefined;
}

/**
 * Single use comes last: a used code is a replay, and revokes its grant, only when the request would
 * have redeemed it had it been unused, so only the client it was issued to, proving itself as the
 * redemption requires, can burn a grant. A failed redemption leaves the
 * code in place (docs/upstream/owncloud-oauth2.md A.1.4); the cleanup removes it a week after expiry.
 */
export async function handle(deps: GrantDeps, input: GrantInput): Promise<GrantResult> {
  const { code, redirect_uri: redirectUri } = input.params;
  if (code === undefined || redirectUri === undefined) return new OAuthError("invalid_request");

  const codeHash = sha256Hex(code);
  const record = await deps.grants.findCode(codeHash);
  if (!record) return unknownCode();
  const refused = refusal(deps, input, record, redirectUri);
  if (record.consumed) {
    return refused ? unprovenReplay(deps, input, record.grantId, refused) : replayed(deps, input, record.grantId);
  }
  if (refused) return refused;

  // ownCloud's log line (docs/upstream/owncloud-oauth2.md, Logging), written once the outcome is known (one line per exchange).
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
  const response = await issueForCode(deps, input, codeHash, record, true);
  // Lost the compare-and-set to a concurrent redemption of the same code: that is a replay too.
  if (!response) return replayed(deps, input, record.grantId);
  logRedeemed("tokens issued");
  return { response };
}
