import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { baseUrl } from "../base-url.js";
import { html } from "../html.js";
import { sendAuthorizationFailure } from "../oauth-errors.js";
import { strictParams } from "../oauth-params.js";
import { messagePage, sendPage } from "../pages/layout.js";
import { authorizationSuccessfulPage, authorizeErrorPage, consentPage, type PageUser } from "../pages/oauth.js";
import { authenticate, clearSessionCookie, csrfValid, requirePageUser } from "../plugins/authentication.js";
import { DEFAULT_LANDING } from "./login.js";
import { requireFormUser } from "./settings.js";

export const AUTHORIZE_PATH = "/index.php/apps/oauth2/authorize";
export const AUTHORIZATION_SUCCESSFUL_PATH = "/index.php/apps/oauth2/authorization-successful";
const LOGOUT_PATH = "/index.php/apps/oauth2/logout";

/** The authorization request's parameters, carried through logout and login (research A.2.5). */
const CARRIED = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "code_challenge",
  "code_challenge_method",
  "response_mode",
];

/**
 * The authorization request's query, strictly (http/oauth-params.ts): a repeated, non-string or
 * oversized parameter makes the request invalid before anything else is looked at; it is answered
 * with the "Request not valid" page (400), never a redirect, since nothing is proven yet.
 */
function queryOf(request: FastifyRequest): Record<string, string> | undefined {
  const parsed = strictParams(request.query);
  if (parsed.ok) return parsed.params;
  request.log.info({ event: "oauth2_authorize_malformed", detail: parsed.detail }, "malformed authorization request");
  return undefined;
}

function carried(query: Record<string, unknown>, extra: Record<string, string>): string {
  const params = new URLSearchParams(extra);
  for (const name of CARRIED) {
    const value = query[name];
    if (typeof value === "string") params.set(name, value);
  }
  return params.toString();
}

function pageUser(principal: Principal): PageUser {
  return { uid: principal.user.uid, displayName: principal.user.displayName, csrfToken: principal.session?.csrfToken ?? "" };
}

/** research A.2.5: logs out, then back to login with the same authorization request. */
function logoutUrl(query: Record<string, unknown>, principal: Principal, requestedUser: string): string {
  return `${LOGOUT_PATH}?${carried(query, { user: requestedUser, requesttoken: principal.session?.csrfToken ?? "" })}`;
}

/** `GET|POST /index.php/apps/oauth2/authorize`, the logout helper, and the success page. */
export async function oauthAuthorizeRoutes(app: FastifyInstance): Promise<void> {
  const { oauth } = app.services;

  // research A.2.1: the login page names the application asking for access.
  app.loginNoteProviders.push(async (redirectUrl) => {
    const name = await oauth.clientNameForReturnUrl(redirectUrl);
    return name === undefined
      ? undefined
      : html`The application "${name}" is requesting access to your account. To authorize it, please log in first.`;
  });

  app.get(AUTHORIZE_PATH, async (request, reply) => {
    const query = queryOf(request);
    if (!query) return sendPage(reply, authorizeErrorPage(null, undefined, request.id), 400);
    const auth = await authenticate(request);
    if (!("principal" in auth) || auth.principal.method !== "session") {
      // Not logged in: to the login page and back; the `user` parameter becomes the login hint.
      const hint = typeof query.user === "string" && query.user !== "" ? `&user=${encodeURIComponent(query.user)}` : "";
      return reply.redirect(`/index.php/login?redirect_url=${encodeURIComponent(request.url)}${hint}`, 303);
    }
    const principal = auth.principal;
    const user = pageUser(principal);
    const check = await oauth.checkAuthorization(query, baseUrl(request), principal.user.uid);
    const requestedUser = typeof query.user === "string" ? query.user : "";
    if (check.kind !== "valid") {
      // The client's or the user's mistake, not a server fault: a warning, on the request's log (its
      // reqId is the reference the error page shows; review F24).
      if (check.kind !== "switch_user") request.log.warn({ event: "oauth2_authorize_refused", uid: user.uid }, check.detail);
      return sendAuthorizationFailure(reply, check, { user, logoutUrl: logoutUrl(query, principal, requestedUser) });
    }
    if (check.request.client.trusted) {
      return reply.redirect(await oauth.authorize(check.request, principal.user.uid), 303);
    }
    return sendPage(
      reply,
      consentPage({ clientName: check.request.client.name, user, logoutUrl: logoutUrl(query, principal, requestedUser) }),
    );
  });

  // research A.2.4: the consent form. CSRF checked; `user` and `trusted` are not re-checked.
  app.post(AUTHORIZE_PATH, async (request, reply) => {
    const query = queryOf(request);
    if (!query) return sendPage(reply, authorizeErrorPage(null, undefined, request.id), 400);
    const principal = await requireFormUser(request, reply);
    if (!principal) return;
    const check = await oauth.checkAuthorization(query, baseUrl(request));
    if (check.kind !== "valid") return reply.redirect(DEFAULT_LANDING, 303);
    return reply.redirect(await oauth.authorize(check.request, principal.user.uid), 303);
  });

  app.get(LOGOUT_PATH, async (request, reply) => {
    const principal = await requirePageUser(request, reply);
    if (!principal) return;
    if (!csrfValid(request, principal.session)) {
      return sendPage(reply, messagePage("Log out", "The logout link is invalid or expired."), 403);
    }
    const query = queryOf(request);
    if (
      !query ||
      typeof query.response_type !== "string" ||
      typeof query.client_id !== "string" ||
      typeof query.redirect_uri !== "string"
    ) {
      return sendPage(reply, authorizeErrorPage(null, pageUser(principal), request.id), 400);
    }
    await app.services.sessions.end(principal.session?.token ?? "");
    clearSessionCookie(request, reply);
    const user = typeof query.user === "string" ? query.user : "";
    const back = `${AUTHORIZE_PATH}?${carried(query, user === "" ? {} : { user })}`;
    const hint = user === "" ? "" : `&user=${encodeURIComponent(user)}`;
    return reply.redirect(`/index.php/login?redirect_url=${encodeURIComponent(back)}${hint}`, 303);
  });

  app.get(AUTHORIZATION_SUCCESSFUL_PATH, async (request, reply) => {
    const principal = await requirePageUser(request, reply);
    if (principal) return sendPage(reply, authorizationSuccessfulPage(pageUser(principal)));
  });
}
