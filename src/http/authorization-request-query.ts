import type { FastifyRequest } from "fastify";
import type { Principal } from "../accounts/authentication.js";
import { isOpenIdScope } from "../oauth/domain/scope.js";
import { queryAfterLogin } from "../oidc/interaction.js";
import { strictParams } from "./oauth-params.js";
import { AUTHORIZE_PATH } from "./oauth-paths.js";

/**
 * The authorization request's query (RFC 6749 §4.1.1), and the URLs that carry it through login and
 * logout and back to the authorization endpoint.
 */

export const LOGOUT_PATH = "/index.php/apps/oauth2/logout";

/**
 * The authorization request's parameters, carried through logout and login (ownCloud's switch-user
 * link, docs/upstream/owncloud-oauth2.md A.2.5).
 */
const CARRIED = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "code_challenge",
  "code_challenge_method",
  "response_mode",
  // OpenID Connect. Not `prompt` or `max_age`: the login that follows satisfies them.
  "scope",
  "nonce",
  "login_hint",
  "claims",
];

/**
 * The authorization request's query, strictly (http/oauth-params.ts): a repeated, non-string or
 * oversized parameter makes the request invalid before anything else is looked at; it is answered
 * with the "Request not valid" page (400), never a redirect, since nothing is proven yet.
 */
export function queryOf(request: FastifyRequest): Record<string, string> | undefined {
  const parsed = strictParams(request.query);
  if (parsed.ok) return parsed.params;
  request.log.info({ event: "oauth2_authorize_malformed", detail: parsed.detail }, "malformed authorization request");
  return undefined;
}

export function isOpenId(query: Record<string, string>): boolean {
  return isOpenIdScope(query.scope);
}

function carried(query: Record<string, unknown>, extra: Record<string, string>): string {
  const params = new URLSearchParams(extra);
  for (const name of CARRIED) {
    const value = query[name];
    if (typeof value === "string") params.set(name, value);
  }
  return params.toString();
}

/**
 * To the login page and back to this authorization request. The `user` parameter (ownCloud), else
 * OIDC's `login_hint`, fills in the user name. `fresh`: the login form even though a session exists
 * (`prompt=login`, `max_age`, OIDC Core §3.1.2.1); the way back then drops what the login satisfies.
 */
export function loginRedirect(requestUrl: string, query: Record<string, string>, openid: boolean, fresh: boolean): string {
  const afterLogin = queryAfterLogin(query);
  const changed = afterLogin.prompt !== query.prompt || afterLogin.max_age !== query.max_age;
  const back = openid && changed ? `${AUTHORIZE_PATH}?${new URLSearchParams(afterLogin)}` : requestUrl;
  const hint = query.user || (openid ? query.login_hint : undefined);
  const extra = `${hint ? `&user=${encodeURIComponent(hint)}` : ""}${fresh ? "&prompt=login" : ""}`;
  return `/index.php/login?redirect_url=${encodeURIComponent(back)}${extra}`;
}

/** Logs out, then back to login with the same authorization request (docs/upstream/owncloud-oauth2.md A.2.5). */
export function logoutUrl(query: Record<string, unknown>, principal: Principal, requestedUser: string): string {
  return `${LOGOUT_PATH}?${carried(query, { user: requestedUser, requesttoken: principal.session?.csrfToken ?? "" })}`;
}

/** The `user` an ownCloud client names in its authorization request, or "". */
export function requestedUserOf(query: Record<string, string>): string {
  return typeof query.user === "string" ? query.user : "";
}

/** After the switch-user page's logout: the login page, then back to the same authorization request. */
export function loginAfterLogout(query: Record<string, string>): string {
  const user = requestedUserOf(query);
  const back = `${AUTHORIZE_PATH}?${carried(query, user === "" ? {} : { user })}`;
  const hint = user === "" ? "" : `&user=${encodeURIComponent(user)}`;
  return `/index.php/login?redirect_url=${encodeURIComponent(back)}${hint}`;
}
