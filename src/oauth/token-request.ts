import type { RequestOrigin, WriteWithIssue } from "./ports.js";
import type { ReadAhead } from "./read-ahead.js";

/** Where a request's OAuth events (code redeemed, refresh, replay …) are logged. */
export interface EventLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** A POST to one of the client-facing endpoints (token, revoke, introspect), as the HTTP layer hands it over. */
export interface TokenRequest {
  /** The form body; the HTTP layer has refused repeated and non-string parameters (http/oauth-params.ts). */
  body: Record<string, unknown>;
  authorization: string | undefined;
  userAgent: string | undefined;
  /**
   * This request's event log: the HTTP layer's puts an info event on the request's access-log line
   * (http/access-log.ts). Absent: the service's log.
   */
  log?: EventLog;
  /** The issuer and base URL this request was addressed to (ID tokens, issue 15); absent: no ID token. */
  origin?: RequestOrigin;
  /** Committed with the tokens when this request issues some (see WriteWithIssue). */
  withIssue?: WriteWithIssue;
  /**
   * This request's client and presented code or refresh token, already read (with the throttle's
   * reservation: OAuthService.readAheadRider); absent, the token endpoint reads them.
   */
  readAhead?: ReadAhead | undefined;
}

export function stringParam(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === "string" ? value : undefined;
}
