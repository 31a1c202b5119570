import type { FastifyReply, FastifyRequest } from "fastify";
import { randomToken } from "../crypto/secrets.js";
import { httpsSite } from "./base-url.js";
import { submittedRequestToken } from "./plugins/authentication.js";

/**
 * The login form's CSRF token without a server-side session: a signed double-submit cookie (OWASP
 * Cross-Site Request Forgery Prevention Cheat Sheet, "Signed Double-Submit Cookie"). The cookie
 * holds a random nonce; the form's `requesttoken` is `<shown at>.<HMAC of shown-at and nonce>`
 * (services' loginFormSigner, a key derived from the server's key file). A cross-site page can
 * neither read the cookie nor compute that HMAC, so it cannot submit the form in the user's
 * browser; and showing the form writes nothing to the database. The session itself is created at a
 * successful login only, with a new id (routes/login.ts).
 */
const LOGIN_FORM_COOKIE = "ks_login_form";
/** The form posts back to the page's own path: the cookie goes nowhere else. */
const LOGIN_FORM_COOKIE_PATH = "/index.php/login";
/** How long a shown login form can be submitted (as long as the anonymous session that carried it used to live). */
export const LOGIN_FORM_LIFETIME_SECONDS = 3600;

const NONCE = /^[A-Za-z0-9_-]{43}$/;
const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{1,64})$/;

function cookieOptions(request: FastifyRequest) {
  return { path: LOGIN_FORM_COOKIE_PATH, httpOnly: true, sameSite: "lax", secure: httpsSite(request) } as const;
}

/**
 * The `requesttoken` for a login form about to be shown. The browser's nonce is kept (several tabs'
 * forms all stay valid) and its cookie renewed, or a new one is set; each form's token carries the
 * time it was shown, so it expires on its own.
 */
export function loginFormToken(request: FastifyRequest, reply: FastifyReply): string {
  const { clock, loginFormSigner } = request.server.services;
  const current = request.cookies[LOGIN_FORM_COOKIE];
  const nonce = current !== undefined && NONCE.test(current) ? current : randomToken(32);
  reply.setCookie(LOGIN_FORM_COOKIE, nonce, { ...cookieOptions(request), maxAge: LOGIN_FORM_LIFETIME_SECONDS });
  const shownAt = String(clock.nowSeconds());
  return `${shownAt}.${loginFormSigner.sign(`${shownAt}.${nonce}`)}`;
}

/**
 * Whether the login POST carries the form's token (body or header) for this browser's nonce,
 * shown less than LOGIN_FORM_LIFETIME_SECONDS ago.
 */
export function loginFormTokenValid(request: FastifyRequest): boolean {
  const nonce = request.cookies[LOGIN_FORM_COOKIE];
  const token = TOKEN.exec(submittedRequestToken(request) ?? "");
  if (nonce === undefined || !NONCE.test(nonce) || !token?.[1] || !token[2]) return false;
  const age = request.server.services.clock.nowSeconds() - Number(token[1]);
  if (age < 0 || age >= LOGIN_FORM_LIFETIME_SECONDS) return false;
  return request.server.services.loginFormSigner.verify(`${token[1]}.${nonce}`, token[2]);
}

/** After a login the form's cookie has served: the browser forgets it. */
export function clearLoginFormToken(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(LOGIN_FORM_COOKIE, cookieOptions(request));
}

/**
 * The browser's login form nonce when the request carries a valid login form token: what binds a
 * passkey sign-in's challenge to the browser that asked for it (second-factor/passkeys.ts).
 */
export function loginFormBrowser(request: FastifyRequest): string | undefined {
  return loginFormTokenValid(request) ? request.cookies[LOGIN_FORM_COOKIE] : undefined;
}
