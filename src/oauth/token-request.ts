import type { AuditTrail } from "../audit/recorder.js";
import type { RequestOrigin } from "./ports.js";

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
  /** The audit log with the request's context (refresh-token reuse); absent: the service's. */
  audit?: AuditTrail;
  /** The issuer and base URL this request was addressed to (for ID tokens); absent: no ID token. */
  origin?: RequestOrigin;
}
