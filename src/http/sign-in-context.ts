import type { FastifyRequest } from "fastify";
import type { SignInContext } from "../accounts/sign-in.js";
import { auditOf } from "./audit-sign-in.js";
import { siteOrigin } from "./base-url.js";
import { SESSION_COOKIE } from "./plugins/authentication.js";
import { throttledAttempt } from "./throttling.js";

/** A sign-in attempt's context as this request gives it: its address, browser, session cookie, throttle gate, audit and log. */
export function signInContext(request: FastifyRequest): SignInContext {
  return {
    ip: request.ip,
    userAgent: request.headers["user-agent"],
    previousSession: request.cookies[SESSION_COOKIE],
    origin: siteOrigin(request),
    gate: { attempt: (throttle, buckets, run, endOf) => throttledAttempt(request, throttle, buckets, run, endOf) },
    audit: auditOf(request),
    log: request.log,
  };
}
