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
