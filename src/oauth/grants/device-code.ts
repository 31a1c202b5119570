import { sha256Hex } from "../../crypto/secrets.js";
import { mayUseDeviceGrant, pollTooSoon, SLOW_DOWN_SECONDS } from "../domain/device-flow.js";
import { OAuthError } from "../domain/errors.js";
import { isExpired } from "../domain/lifetimes.js";
import type { DeviceAuthorizationRecord } from "../ports.js";
import { issueForCode } from "./code-redemption.js";
import type { Grant, GrantDeps, GrantInput, GrantResult } from "./types.js";

/** RFC 8628 §3.4: the device code grant's type. */
const grantType = "urn:ietf:params:oauth:grant-type:device_code";

const usedOrGone = () => new OAuthError("invalid_grant", "device code does not exist or was used");

/**
 * RFC 8628 §3.5 while the user has not decided: `slow_down` when this poll came sooner than the
 * interval after the previous one (the interval then grows by 5 s for every later poll), else
 * `authorization_pending`. A poll that loses the compare-and-set to a concurrent one is too soon too.
 */
async function pending(deps: GrantDeps, deviceCodeHash: string, record: DeviceAuthorizationRecord): Promise<OAuthError> {
  const tooSoon = pollTooSoon(record.lastPolledAt, record.interval, deps.now);
  const interval = tooSoon ? record.interval + SLOW_DOWN_SECONDS : record.interval;
  const recorded = await deps.devices.recordPoll(deviceCodeHash, record.lastPolledAt, deps.now, interval);
  return tooSoon || !recorded ? new OAuthError("slow_down") : new OAuthError("authorization_pending");
}

/**
 * Approved: the approval recorded a grant with a code no one holds (device-authorization.ts); the
 * device code redeems it as the code grant redeems its codes (GrantStore.redeemCode: once, the tokens
 * and the throttle settlement in the same write), with the tokens of the code grant: access and
 * refresh token, the granted scope, and an ID token when `openid` was granted (no `nonce`: the
 * device authorization request has none).
 */
async function redeem(deps: GrantDeps, input: GrantInput, codeHash: string | null): Promise<GrantResult> {
  const code = codeHash === null ? undefined : await deps.grants.findCode(codeHash);
  // No code: the user revoked the new grant in personal settings before the client polled.
  if (!code || codeHash === null) return usedOrGone();
  const used = () => {
    deps.log.warn(
      { event: "oauth2_device_code_reused", client: input.client.clientId, grant: code.grantId },
      "A device code was presented again after its tokens were issued: refused.",
    );
    return usedOrGone();
  };
  if (code.consumed) return used();
  if (!code.userEnabled) {
    await deps.grants.redeemCode(codeHash, deps.now, undefined);
    return new OAuthError("unauthorized_client", "user not enabled");
  }
  const response = await issueForCode(deps, input, codeHash, code, false);
  if (!response) return used();
  deps.log.info(
    { event: "oauth2_device_code_redeemed", client: input.client.clientId, uid: code.uid, grant: code.grantId },
    `A device code has been used by the client "${input.client.name}" to request an access token.`,
  );
  return { response };
}

/**
 * RFC 8628 §3.4–§3.5, first failure wins: the device code exists (an unknown one is what guessing
 * produces), was issued to this client, which proves itself as it did when it asked for it (a
 * device code obtained with a secret needs the secret), and may still use the grant; then expiry
 * (`expired_token`), then what the user decided.
 */
async function handle(deps: GrantDeps, input: GrantInput): Promise<GrantResult> {
  const deviceCode = input.params.device_code;
  if (deviceCode === undefined) return new OAuthError("invalid_request");
  const deviceCodeHash = sha256Hex(deviceCode);
  const record = await deps.devices.findByDeviceCode(deviceCodeHash);
  if (!record) return new OAuthError("invalid_grant", "device code does not exist or was used", { guess: true });
  if (record.clientInternalId !== input.client.id) {
    return new OAuthError("invalid_grant", "device code was issued to another client");
  }
  if (input.method === "none" && !record.publicClient) {
    return new OAuthError("invalid_client", undefined, {
      challenged: true,
      detail: "this device code needs client authentication",
    });
  }
  if (!mayUseDeviceGrant(input.client)) {
    return new OAuthError("unauthorized_client", "this client may not use the device authorization grant");
  }
  if (isExpired(record.expiresAt, deps.now)) return new OAuthError("expired_token", "device code expired");
  switch (record.state) {
    case "pending":
      return pending(deps, deviceCodeHash, record);
    case "denied":
      return new OAuthError("access_denied", "the user denied the request");
    case "approved":
      return redeem(deps, input, record.codeHash);
  }
}

/** RFC 8628 §3.4: the device code grant, polled by the client until the user decides. */
export const deviceCodeGrant: Grant = { grantType, parameters: new Set(["device_code"]), handle };
