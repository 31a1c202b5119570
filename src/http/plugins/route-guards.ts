import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import type { RequiredScope } from "../../oauth/domain/scope.js";
import { confirmPasswordOrAsk } from "../console/password-confirmation.js";
import { sendAdminsOnly, sendCsrfRefusal, sendFormExpired } from "../guard-errors.js";
import {
  apiCallFromOwnPage,
  csrfValid,
  logoutLinkValid,
  principalAllows,
  type RequireUserOptions,
  requirePageUser,
  requireUser,
  sendInsufficientScope,
} from "./authentication.js";

/**
 * Route guards applied by the route's group, not called by its handler (fastify/fastify
 * docs/Reference/Encapsulation.md: hooks registered in a plugin context apply to every route of
 * that context). A group is a plugin context made with `guarded(guard, routes)`: its `preHandler`
 * hook runs the guard before every handler of the group, so a route added to the group is guarded
 * without its handler calling anything, and reads the principal the guard established as
 * `request.principal`.
 *
 * A guard first identifies the user (sending the login redirect or the authentication refusal when
 * it cannot), then runs its checks in order, each sending its own refusal. The order is the
 * answer's order: a session before its CSRF token, an administrator before the API's CSRF proof.
 *
 * The user is identified before any of the body is read (a `preParsing` hook: fastify/fastify
 * docs/Reference/Lifecycle.md), so an anonymous caller's body is never parsed, and a body that
 * would fail to parse gets the authentication answer. The checks run once the body is read
 * (`preHandler`): a form's CSRF token is in its body.
 */
export interface RouteGuard {
  /** Names the guard in the route table (`route.config.guard`) and in the route-guards test. */
  readonly name: string;
  /** The principal of the request, or undefined once the refusal has been sent. */
  readonly identify: (request: FastifyRequest, reply: FastifyReply) => Promise<Principal | undefined>;
  readonly checks: readonly GuardCheck[];
  /**
   * For a guard that accepts API credentials: the scope a bearer token must have been granted
   * (src/oauth/domain/scope.ts), checked right after `identify`, before any other check; refused
   * with RFC 6750 §3.1 `insufficient_scope`. Guards of browser pages and forms have none.
   */
  readonly scope?: RequiredScope;
}

export interface GuardCheck {
  /**
   * Whether passing this check proves the request comes from Keystream's own pages, or carries
   * credentials a browser does not send on its own: what a state-changing route needs (CSRF).
   */
  readonly provesOrigin: boolean;
  /** True to go on; false once the refusal has been sent. */
  readonly passes: (request: FastifyRequest, reply: FastifyReply, principal: Principal) => boolean | Promise<boolean>;
}

/** What the route table records of the guard of a route's group. */
export interface RouteGuardMark {
  name: string;
  provesOrigin: boolean;
  /** The scope a bearer token needs on the route; null for guards of browser pages and forms. */
  scope: RequiredScope | null;
}

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The principal the guard of the route's group established. Reading it on a route of no
     * guarded group throws: such a handler never runs for nobody.
     */
    readonly principal: Principal;
    /** Where the guard keeps the principal; handlers read `principal`. */
    guardPrincipal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Set on every route of a guarded group. */
    guard?: RouteGuardMark;
  }
}

/** Gives every request the `principal` slot (once, on the root instance, before any route). */
export function decorateGuardPrincipal(app: FastifyInstance): void {
  app.decorateRequest("guardPrincipal", null);
  app.decorateRequest("principal", {
    getter(this: FastifyRequest): Principal {
      if (this.guardPrincipal === null) {
        throw new Error(`${this.method} ${this.routeOptions.url ?? this.url} is in no guarded route group`);
      }
      return this.guardPrincipal;
    },
  });
}

/**
 * A plugin whose routes all pass `guard` before their handler. `routes` adds the routes to the
 * group's own context (`group.get`, `group.post`, …).
 */
export function guarded(
  guard: RouteGuard,
  routes: (group: FastifyInstance) => void | Promise<void>,
): (group: FastifyInstance) => Promise<void> {
  const mark: RouteGuardMark = {
    name: guard.name,
    provesOrigin: guard.checks.some((check) => check.provesOrigin),
    scope: guard.scope ?? null,
  };
  const { checks } = guard;
  return async (group) => {
    group.addHook("onRoute", (route) => {
      route.config = { ...route.config, guard: mark };
      // The OpenAPI document says what the guard checks (RFC 6750 §3.1 for a missing scope).
      if (guard.scope !== undefined && route.schema) {
        const scopeNote = `A bearer token needs the scope \`${guard.scope}\` (403 \`insufficient_scope\` otherwise).`;
        const description = route.schema.description ? `${route.schema.description} ${scopeNote}` : scopeNote;
        route.schema = { ...route.schema, description };
      }
    });
    // Fastify stops before the body once the hook has sent the refusal (reply.sent).
    group.addHook("preParsing", async (request, reply, payload) => {
      const principal = await guard.identify(request, reply);
      if (principal === undefined) return payload;
      if (guard.scope !== undefined && !principalAllows(principal, guard.scope)) {
        sendInsufficientScope(reply, guard.scope);
        return payload;
      }
      if (checks.length === 0) request.guardPrincipal = principal;
      else identified.set(request, principal);
      return payload;
    });
    if (checks.length === 0) return routes(group);
    group.addHook("preHandler", async (request, reply) => {
      const principal = identified.get(request);
      if (principal === undefined) return reply;
      for (const check of checks) {
        if (!(await check.passes(request, reply, principal))) return reply;
      }
      request.guardPrincipal = principal;
    });
    await routes(group);
  };
}

/** The principal a guard identified before the body was read, until its checks have passed. */
const identified = new WeakMap<FastifyRequest, Principal>();

/** Where the login page sends a browser back to; the request's own URL unless told otherwise. */
export type ReturnTo = (request: FastifyRequest) => string;

/** A logged-in browser session, else a 303 to the login page and back (requirePageUser). */
export function sessionUser(returnTo?: ReturnTo): RouteGuard["identify"] {
  return (request, reply) => requirePageUser(request, reply, returnTo?.(request));
}

/** An API caller by any credential, else 401 with a challenge (or the status given for nobody). */
export function apiUser(options: RequireUserOptions = {}): RouteGuard["identify"] {
  return (request, reply) => requireUser(request, reply, options);
}

/**
 * The form's `requesttoken` is the session's (csrfValid); otherwise `refuse` answers, by default
 * the "form expired" page.
 */
export function formToken(refuse: GuardRefusal = sendFormExpired): GuardCheck {
  return {
    provesOrigin: true,
    passes: (request, reply, principal) => {
      if (csrfValid(request, principal.session)) return true;
      refuse(request, reply, principal);
      return false;
    },
  };
}

/**
 * A logout link's `requesttoken`, in its query, is the session's (logoutLinkValid); otherwise
 * `refuse` answers.
 */
export function logoutLinkToken(refuse: GuardRefusal): GuardCheck {
  return {
    provesOrigin: true,
    passes: (request, reply, principal) => {
      if (logoutLinkValid(request, principal.session)) return true;
      refuse(request, reply, principal);
      return false;
    },
  };
}

/** A JSON API call proves it is not a cross-site request (apiCallFromOwnPage), else 403 `csrf`. */
export const apiOrigin: GuardCheck = {
  provesOrigin: true,
  passes: (request, reply, principal) => {
    if (apiCallFromOwnPage(request, principal)) return true;
    sendCsrfRefusal(reply);
    return false;
  },
};

/** The user is an administrator, else `refuse` answers (by default the "administrators only" page). */
export function administrator(refuse: GuardRefusal = sendAdminsOnly): GuardCheck {
  return {
    provesOrigin: false,
    passes: (request, reply, principal) => {
      if (principal.user.isAdmin) return true;
      refuse(request, reply, principal);
      return false;
    },
  };
}

/**
 * The session's user proved the password recently (accounts/password-confirmation.ts), or proves
 * it now in the form's `confirm_password`; else the confirmation page asks for it and carries the
 * action on (http/console/password-confirmation.ts). For actions that hand out a lasting credential, after
 * the form's CSRF token.
 */
export const recentPassword: GuardCheck = { provesOrigin: false, passes: confirmPasswordOrAsk };

export type GuardRefusal = (request: FastifyRequest, reply: FastifyReply, principal: Principal) => unknown;

/** Browser pages of a logged-in user. */
export const SESSION_PAGE: RouteGuard = { name: "session page", identify: sessionUser(), checks: [] };

/** Browser pages of administrators. */
export const ADMIN_PAGE: RouteGuard = { name: "admin page", identify: sessionUser(), checks: [administrator()] };

/** State-changing forms of a logged-in user: the session, then its CSRF token. */
export const SESSION_FORM: RouteGuard = { name: "session form", identify: sessionUser(), checks: [formToken()] };

/**
 * Forms that hand out a lasting credential (an app password) or, later, change how the account is
 * proven: the session, its CSRF token, then a recent password confirmation.
 */
export const CONFIRMED_SESSION_FORM: RouteGuard = {
  name: "confirmed session form",
  identify: sessionUser(),
  checks: [formToken(), recentPassword],
};

/**
 * Administrators' forms that change how another account is proven (removing a user's second
 * factor): the session, its CSRF token, the role, then a recent password confirmation.
 */
export const CONFIRMED_ADMIN_FORM: RouteGuard = {
  name: "confirmed admin form",
  identify: sessionUser(),
  checks: [formToken(), administrator(), recentPassword],
};

/** State-changing forms of administrators: the session, its CSRF token, then the role. */
export const ADMIN_FORM: RouteGuard = {
  name: "admin form",
  identify: sessionUser(),
  checks: [formToken(), administrator()],
};

/** JSON API reads: any credential the authentication chain accepts, a token with `scope`. */
export function apiRead(scope: RequiredScope, options: RequireUserOptions = {}): RouteGuard {
  return { name: "api read", identify: apiUser(options), checks: [], scope };
}

/** State-changing JSON API calls: any credential (a token with `scope`), then the CSRF proof of a browser session. */
export function apiWrite(scope: RequiredScope, options: RequireUserOptions = {}): RouteGuard {
  return { name: "api write", identify: apiUser(options), checks: [apiOrigin], scope };
}
