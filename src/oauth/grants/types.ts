import type { AuditTrail } from "../../audit/recorder.js";
import type { SecretSealer } from "../../crypto/secret-box.js";
import type { AuthenticatedClient } from "../client-authentication.js";
import type { OAuthError } from "../domain/errors.js";
import type { DeviceAuthorizationStore, GrantStore, IdTokenMinter, OAuthClient, RequestOrigin } from "../ports.js";
import type { EventLog } from "../token-request.js";
import type { TokenResponse } from "../tokens.js";

/** What a grant needs, and nothing more (fosite's handler fields). */
export interface GrantDeps {
  grants: GrantStore;
  /** Device authorizations (RFC 8628), polled by the device code grant. */
  devices: DeviceAuthorizationStore;
  now: number;
  refreshTokenLifetime: number;
  /** Seconds a rotated refresh token still gets the pair its rotation issued (0: none; max 60). */
  refreshReuseGrace: number;
  /** Seals the grace pair (AES-256-GCM, the client-secret key); plain tokens are never stored. */
  sealer: SecretSealer;
  log: EventLog;
  /** OpenID Connect: signs ID tokens for `openid` grants; absent, none is issued. */
  idTokens?: IdTokenMinter | undefined;
  /** The audit log (refresh-token reuse); absent, nothing is recorded. */
  audit?: AuditTrail | undefined;
}

export interface GrantInput {
  client: OAuthClient;
  /** How the client authenticated: `none` is a public client (client_id, proven by PKCE). */
  method: AuthenticatedClient["method"];
  /** Only the parameters the grant declares (the endpoint drops the rest). */
  params: Record<string, string | undefined>;
  userAgent: string | undefined;
  origin?: RequestOrigin | undefined;
}

/** Tokens issued: the response. */
export interface Issued {
  response: TokenResponse;
}

export type GrantResult = Issued | OAuthError;

/** One grant type of the token endpoint (node-oidc-provider's grant module). */
export interface Grant {
  grantType: string;
  parameters: ReadonlySet<string>;
  handle(deps: GrantDeps, input: GrantInput): Promise<GrantResult>;
}
