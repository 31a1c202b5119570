/**
 * OAuth errors as values: a failed rule returns an OAuthError, it does not throw. `http/oauth-errors.ts`
 * alone turns one into a status, a body, headers, a redirect or a page.
 * RFC 6749 §5.2 (token endpoint) and §4.1.2.1 (authorization endpoint).
 */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_response_type"
  | "server_error"
  // RFC 6749 §5.2, at the device authorization endpoint (RFC 8628 §3.2).
  | "invalid_scope"
  // RFC 8628 §3.5: the device code grant's answers while the user has not approved.
  | "authorization_pending"
  | "slow_down"
  | "access_denied"
  | "expired_token";

export interface OAuthErrorOptions {
  /** Internal detail for the log; never sent to the client. */
  detail?: string;
  /**
   * The client tried to authenticate (an Authorization header, or a secret in the body): an
   * `invalid_client` is then 401 with a Basic challenge (RFC 6749 §5.2).
   */
  challenged?: boolean;
  /**
   * Answer with HTTP 200 instead of 400: the loop breaker for ownCloud desktop 2.4.2, which retries a
   * failed refresh forever (docs/upstream/owncloud-oauth2.md A.1.2, see `isLegacyDesktopRefreshLoop`).
   */
  softFail?: boolean;
  /**
   * What guessing produces (an unknown client, a wrong secret, an unknown code or token): the HTTP
   * layer counts it for brute-force throttling. Replays, expiry and mismatches are not counted.
   */
  guess?: boolean;
}

export class OAuthError {
  readonly detail: string | undefined;
  readonly challenged: boolean;
  readonly softFail: boolean;
  readonly guess: boolean;

  constructor(
    readonly code: OAuthErrorCode,
    /** The `error_description` the client sees (ownCloud's wording, docs/upstream/owncloud-oauth2.md A.1), or none. */
    readonly description?: string,
    options: OAuthErrorOptions = {},
  ) {
    this.detail = options.detail;
    this.challenged = options.challenged ?? false;
    this.softFail = options.softFail ?? false;
    this.guess = options.guess ?? false;
  }

  /** The same error answered with HTTP 200 (legacy desktop client rule). */
  soft(): OAuthError {
    return new OAuthError(this.code, this.description, {
      detail: this.detail,
      challenged: this.challenged,
      softFail: true,
      guess: this.guess,
    });
  }

  /** The JSON body: `{"error":…, "error_description"?:…}`. */
  toJSON(): { error: OAuthErrorCode; error_description?: string } {
    return this.description === undefined ? { error: this.code } : { error: this.code, error_description: this.description };
  }
}
