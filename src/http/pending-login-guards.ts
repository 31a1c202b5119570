import type { FastifyRequest } from "fastify";
import type { Principal } from "../accounts/authentication.js";
import type { SessionPending } from "../accounts/ports.js";
import type { Session } from "../accounts/sessions.js";
import { sameOriginPath } from "../security/same-origin.js";
import { DEFAULT_LANDING } from "./login-landing.js";
import { authenticate, pendingStepPath } from "./plugins/authentication.js";
import { formToken, type RouteGuard } from "./plugins/route-guards.js";

/**
 * The guards of the login's second step (routes/second-factor-login.ts, and the passkey options of
 * the challenge, routes/passkey-login.ts): a session that has passed only the password is a
 * principal there and nowhere else (docs/security.md "Second factors").
 */

/** The way back a page request carries in its query, kept on this server. */
export function queryRedirect(request: FastifyRequest): string | undefined {
  return sameOriginPath((request.query as Record<string, unknown> | undefined)?.redirect_url);
}

/** The query that carries the way back to the next page. */
function back(redirectUrl: string | undefined): string {
  return redirectUrl === undefined ? "" : `?redirect_url=${encodeURIComponent(redirectUrl)}`;
}

/**
 * The session that has passed only the password and owes `step`: the only guard under which such
 * a session is a principal, and only for the step's own page and form. A complete login goes on to
 * where it was going; a session owing the other step goes to that step; nobody to the login page.
 * (Identified before the body is read: the way back is the query's.)
 */
function pendingLogin(step: SessionPending): RouteGuard["identify"] {
  return async (request, reply): Promise<Principal | undefined> => {
    const result = await authenticate(request);
    const redirectUrl = queryRedirect(request);
    if ("principal" in result && result.principal.method === "session") {
      reply.redirect(redirectUrl ?? DEFAULT_LANDING, 303);
      return undefined;
    }
    const pending = "anonymous" in result ? result.pendingLogin : undefined;
    if (pending?.session.pending === step) return { user: pending.user, method: "session", session: pending.session };
    const owed = pending?.session.pending;
    if (owed) reply.redirect(`${pendingStepPath(owed)}${back(redirectUrl)}`, 303);
    else reply.redirect(`/index.php/login${back(redirectUrl ?? DEFAULT_LANDING)}`, 303);
    return undefined;
  };
}

/** The session of a login that owes a step: the principal such a guard admitted has one. */
export function pendingSessionOf(principal: Principal): Session {
  if (principal.session === undefined) throw new Error("a pending login has a session");
  return principal.session;
}

export const CHALLENGE_PAGE: RouteGuard = {
  name: "second factor challenge page",
  identify: pendingLogin("second_factor"),
  checks: [],
};
export const CHALLENGE_FORM: RouteGuard = {
  name: "second factor challenge form",
  identify: pendingLogin("second_factor"),
  checks: [formToken()],
};
export const SETUP_PAGE: RouteGuard = {
  name: "second factor setup page",
  identify: pendingLogin("second_factor_setup"),
  checks: [],
};
export const SETUP_FORM: RouteGuard = {
  name: "second factor setup form",
  identify: pendingLogin("second_factor_setup"),
  checks: [formToken()],
};
