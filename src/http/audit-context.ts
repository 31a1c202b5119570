import type { FastifyRequest } from "fastify";
import type { AuditContext } from "../audit/context.js";
import { ANONYMOUS_ACTOR } from "../audit/domain/kinds.js";

/**
 * The audit context of a request (audit/context.ts): the client address (`request.ip`, through
 * trusted proxies only), its User-Agent, the request id the access log and X-Request-Id carry, and
 * the acting user as the route's guard (or the authentication chain) established it, read when an
 * event is recorded.
 */
export function auditContextOf(request: FastifyRequest): AuditContext {
  return {
    actor() {
      const principal =
        request.guardPrincipal ?? (request.authResult && "principal" in request.authResult ? request.authResult.principal : null);
      return principal?.user.uid ?? ANONYMOUS_ACTOR;
    },
    address: request.ip,
    userAgent: request.headers["user-agent"],
    requestId: request.id,
  };
}

/**
 * Route patterns that never record through a domain service (their sign-in refusals and the token
 * endpoint's refresh-token reuse record with the request given explicitly, audit-sign-in.ts
 * `auditOf`): they run outside the audit context, so the busiest requests pay nothing for it
 * (audit/context.ts runRequestInAuditContext).
 */
const OUTSIDE_CONTEXT = [
  "/index.php/apps/oauth2/api/",
  "/index.php/apps/keystream/api/",
  "/ocs/v1.php/apps/activity/",
  "/ocs/v2.php/apps/activity/",
  "/ocs/v1.php/cloud/",
  "/ocs/v2.php/cloud/",
  "/index.php/apps/activity/api/",
  "/index.php/apps/notify_push/",
  "/index.php/apps/oauth2/jwks",
  "/index.php/login/v2/poll",
  "/index.php/avatar/",
  "/push/",
  "/status.php",
  "/health/",
  "/.well-known/",
];

/** Whether a request runs in its audit context (every route but the hot ones above, and unmatched URLs). */
export function runsInAuditContext(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  return route !== undefined && !OUTSIDE_CONTEXT.some((prefix) => route.startsWith(prefix));
}
