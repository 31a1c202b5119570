import type { SecretSealer } from "../../crypto/secret-box.js";
import type { AuthenticatedClient } from "../client-authentication.js";
import type { OAuthError } from "../domain/errors.js";
import type { GrantStore, IdTokenMinter, OAuthClient, RequestOrigin, WriteWithIssue } from "../ports.js";
import type { ReadAhead } from "../read-ahead.js";
import type { EventLog } from "../token-request.js";
import type { TokenResponse } from "../tokens.js";

/** What a grant needs, and nothing more (fosite's handler fields). */
export interface GrantDeps {
  grants: GrantStore;
  now: number;
  refreshTokenLifetime: number;
  /** Seconds a rotated refresh token still gets the pair its rotation issued (0: none; max 60). */
  refreshReuseGrace: number;
  /** Seals the grace pair (AES-256-GCM, the client-secret key); plain tokens are never stored. */
  sealer: SecretSealer;
  log: EventLog;
  /** OpenID Connect (issue 15): signs ID tokens for `openid` grants; absent, none is issued. */
  idTokens?: IdTokenMinter | undefined;
}

export interface GrantInput {
  client: OAuthClient;
  /** How the client authenticated: `none` is a public client (client_id, proven by PKCE). */
  method: AuthenticatedClient["method"];
  /** Only the parameters the grant declares (the endpoint drops the rest). */
  params: Record<string, string | undefined>;
  userAgent: string | undefined;
  origin?: RequestOrigin | undefined;
  /** Handed to the grant store's redemption or rotation, committed with the tokens. */
  withIssue?: WriteWithIssue | undefined;
  /** The code or refresh token read with the client (read-ahead.ts); the grant asks the store otherwise. */
  readAhead?: ReadAhead | undefined;
}

/** One grant type of the token endpoint (node-oidc-provider's grant module). */
export interface Grant {
  grantType: string;
  parameters: ReadonlySet<string>;
  handle(deps: GrantDeps, input: GrantInput): Promise<TokenResponse | OAuthError>;
}
