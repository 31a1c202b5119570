import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { sessionId } from "../../accounts/sessions.js";
import type { Translator } from "../../i18n/index.js";
import type { AuthorizationResponse } from "../../oauth/authorization-response.js";
import { type AuthorizationCheck, denialResponse, errorResponse, trustedForScope } from "../../oauth/authorize.js";
import { isOpenIdScope } from "../../oauth/domain/scope.js";
import { promptValues } from "../../oauth/openid-request.js";
import { decideInteraction, queryAfterLogin } from "../../oidc/interaction.js";
import { formPostScriptRoute, sendAuthorizationResponse } from "../authorization-response.js";
import type { SafeHtml } from "../html.js";
import { requestTranslator } from "../i18n.js";
import { issuerOf } from "../issuer.js";
import { sendAuthorizationFailure } from "../oauth-errors.js";
import { strictParams } from "../oauth-params.js";
import { headerUser, messagePage, sendPage } from "../pages/layout.js";
import { authorizationSuccessfulPage, authorizeErrorPage, consentPage, type PageUser } from "../pages/oauth.js";
import { translatedHtml } from "../pages/translated-html.js";
import { authenticate, clearSessionCookie } from "../plugins/authentication.js";
import { guarded, logoutLinkToken, type RouteGuard, SESSION_FORM, SESSION_PAGE, sessionUser } from "../plugins/route-guards.js";
import { DEFAULT_LANDING } from "./login.js";

export const AUTHORIZE_PATH = "/index.php/apps/oauth2/authorize";
export const AUTHORIZATION_SUCCESSFUL_PATH = "/index.php/apps/oauth2/authorization-successful";
const LOGOUT_PATH = "/index.php/apps/oauth2/logout";

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
function queryOf(request: FastifyRequest): Record<string, string> | undefined {
  const parsed = strictParams(request.query);
  if (parsed.ok) return parsed.params;
  request.log.info({ event: "oauth2_authorize_malformed", detail: parsed.detail }, "malformed authorization request");
  return undefined;
}

function isOpenId(query: Record<string, string>): boolean {
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

function pageUser(principal: Principal): PageUser {
  return { uid: principal.user.uid, ...headerUser(principal) };
}

/** The page for a request whose parameters could not even be read (repeated, not strings). */
function malformedRequestPage(request: FastifyRequest, translator: Translator, user?: PageUser): SafeHtml {
  return authorizeErrorPage({ translator, reason: "invalid_parameters", clientName: null, user, reference: request.id });
}

/**
 * To the login page and back to this authorization request. The `user` parameter (ownCloud), else
 * OIDC's `login_hint`, fills in the user name. `fresh`: the login form even though a session exists
 * (`prompt=login`, `max_age`, OIDC Core §3.1.2.1); the way back then drops what the login satisfies.
 */
function loginRedirect(requestUrl: string, query: Record<string, string>, openid: boolean, fresh: boolean): string {
  const afterLogin = queryAfterLogin(query);
  const changed = afterLogin.prompt !== query.prompt || afterLogin.max_age !== query.max_age;
  const back = openid && changed ? `${AUTHORIZE_PATH}?${new URLSearchParams(afterLogin)}` : requestUrl;
  const hint = query.user || (openid ? query.login_hint : undefined);
  const extra = `${hint ? `&user=${encodeURIComponent(hint)}` : ""}${fresh ? "&prompt=login" : ""}`;
  return `/index.php/login?redirect_url=${encodeURIComponent(back)}${extra}`;
}

/** Logs out, then back to login with the same authorization request (docs/upstream/owncloud-oauth2.md A.2.5). */
function logoutUrl(query: Record<string, unknown>, principal: Principal, requestedUser: string): string {
  return `${LOGOUT_PATH}?${carried(query, { user: requestedUser, requesttoken: principal.session?.csrfToken ?? "" })}`;
}

/**
 * Before the consent form's checks: an authorization request sent by POST (OIDC Core §3.1.2.1: the
 * endpoint MUST support GET and POST, the parameters form-encoded in the body) is the same request
 * as its GET: a 303 to it, so one handler judges both. The consent form is told apart by its
 * query, which always carries the request (its `action` is the request's own URL). A consent
 * form whose query cannot be read gets the "Request not valid" page (400), logged in or not.
 */
async function authorizationRequestByPostOrMalformedQuery(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const body = request.body;
  if (!hasQuery(request)) {
    // Not the consent form: an authorization request by POST, or nothing valid (CONSENT_FORM did
    // not identify the caller, so this answers every such request).
    const parsed = body !== null && typeof body === "object" && "response_type" in body ? strictParams(body) : undefined;
    if (!parsed?.ok) return sendPage(reply, malformedRequestPage(request, requestTranslator(request)), 400);
    return reply.redirect(`${AUTHORIZE_PATH}?${new URLSearchParams(parsed.params)}`, 303);
  }
  if (queryOf(request)) return undefined;
  return sendPage(reply, malformedRequestPage(request, requestTranslator(request)), 400);
}

function hasQuery(request: FastifyRequest): boolean {
  return Object.keys(request.query as Record<string, unknown>).length > 0;
}

/**
 * The consent form's guard (a session, its CSRF token), except for a POST without a query: that is
 * an authorization request sent by POST (OIDC Core §3.1.2.1), which a browser nobody is logged in on
 * sends too; its parameters are in the body, so it cannot go to the login page before the body is
 * read. It is not identified: authorizationRequestByPostOrMalformedQuery answers it (a 303 to its
 * GET, which sends to the login page and back) before any check runs.
 */
const CONSENT_FORM: RouteGuard = {
  ...SESSION_FORM,
  identify: async (request, reply) => (hasQuery(request) ? SESSION_FORM.identify(request, reply) : undefined),
};

/** A logout link whose requesttoken is not the session's ends nothing: the "invalid link" page, 403. */
function sendInvalidLogoutLink(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const translator = requestTranslator(request);
  const { t } = translator;
  return sendPage(reply, messagePage(translator, t("pages:logout.title"), t("pages:logout.invalidLink")), 403);
}

/** The logout link: the session, then the requesttoken of its query. */
const LOGOUT_LINK: RouteGuard = {
  name: "session logout link",
  identify: sessionUser(),
  checks: [logoutLinkToken(sendInvalidLogoutLink)],
};

/** The client's allowed groups refused the user (authorize.ts step 9). */
function refusedByGroups(
  check: AuthorizationCheck,
): check is Extract<AuthorizationCheck, { kind: "not_available" }> | Extract<AuthorizationCheck, { kind: "redirect" }> {
  return check.kind === "not_available" || (check.kind === "redirect" && check.refusedByGroups === true);
}

/** The log event of a refused request: `oauth2_authorize_refused_by_group` when its allowed groups refused the user. */
function refusalEvent(check: AuthorizationCheck): string {
  return refusedByGroups(check) ? "oauth2_authorize_refused_by_group" : "oauth2_authorize_refused";
}

/** `GET|POST /index.php/apps/oauth2/authorize`, the logout helper, and the success page. */
/** The session an authorization is granted in (its id hash), for the ID tokens' `sid`. */
function sessionIdOf(principal: Principal): string | null {
  return principal.session ? sessionId(principal.session) : null;
}

export async function oauthAuthorizeRoutes(app: FastifyInstance): Promise<void> {
  const { oauth } = app.services;

  // The login page names the application asking for access (docs/upstream/owncloud-oauth2.md A.2.1).
  app.loginNoteProviders.push(async (redirectUrl, translator) => {
    const name = await oauth.clientNameForReturnUrl(redirectUrl);
    return name === undefined ? undefined : translatedHtml(translator, "pages:login.applicationNote", { name });
  });

  /**
   * OIDC Core §3.1.2.1 `prompt=none` with nobody logged in: no login page. Once the client and
   * redirect URI are proven, `login_required` goes to the redirect URI (an unproven request gets the
   * error page as always). Undefined for any other request: on to the login page.
   */
  const silentAnswerWithoutSession = async (
    request: FastifyRequest,
    query: Record<string, string>,
    issuer: string,
  ): Promise<{ kind: "page"; page: SafeHtml } | { kind: "response"; response: AuthorizationResponse } | undefined> => {
    if (!isOpenId(query) || !promptValues(query).has("none")) return undefined;
    const check = await oauth.checkAuthorization(query, issuer);
    if (check.kind === "invalid") {
      const translator = requestTranslator(request);
      const page = authorizeErrorPage({ translator, reason: check.reason, clientName: check.clientName, reference: request.id });
      return { kind: "page", page };
    }
    if (check.kind === "redirect") return { kind: "response", response: check.response };
    if (check.kind !== "valid") return undefined;
    const next = decideInteraction({
      openid: check.request.openid,
      session: undefined,
      now: app.services.clock.nowSeconds(),
      trustedForScope: trustedForScope(check.request),
      consentedBefore: false,
    });
    return next.kind === "error"
      ? { kind: "response", response: errorResponse(check.request, next.error, next.description) }
      : undefined;
  };

  formPostScriptRoute(app);

  app.get(AUTHORIZE_PATH, async (request, reply) => {
    const query = queryOf(request);
    if (!query) return sendPage(reply, malformedRequestPage(request, requestTranslator(request)), 400);
    const issuer = issuerOf(request);
    const auth = await authenticate(request);
    if (!("principal" in auth) || auth.principal.method !== "session") {
      const silent = await silentAnswerWithoutSession(request, query, issuer);
      if (silent) {
        return silent.kind === "page"
          ? sendPage(reply, silent.page, 400)
          : sendAuthorizationResponse(reply, silent.response, requestTranslator(request));
      }
      // Not logged in: to the login page and back.
      return reply.redirect(loginRedirect(request.url, query, isOpenId(query), false), 303);
    }
    const principal = auth.principal;
    const user = pageUser(principal);
    const check = await oauth.checkAuthorization(query, issuer, principal.user.uid);
    const requestedUser = typeof query.user === "string" ? query.user : "";
    if (check.kind !== "valid") {
      // The client's or the user's mistake, not a server fault: a warning, on the request's log (its
      // reqId is the reference the error page shows).
      if (check.kind !== "switch_user") request.log.warn({ event: refusalEvent(check), uid: user.uid }, check.detail);
      return sendAuthorizationFailure(reply, check, {
        user,
        logoutUrl: logoutUrl(query, principal, requestedUser),
        translator: requestTranslator(request),
      });
    }
    const { client, openid } = check.request;
    const authenticatedAt = principal.session?.authenticatedAt ?? null;
    const next = decideInteraction({
      openid,
      session: { uid: principal.user.uid, authenticatedAt: authenticatedAt ?? 0 },
      now: app.services.clock.nowSeconds(),
      trustedForScope: trustedForScope(check.request),
      // Only `prompt=none` needs to know (a query per request otherwise wasted).
      consentedBefore:
        openid?.prompt.has("none") === true && (await oauth.consentedTo(principal.user.uid, client.id, check.request.scope)),
    });
    switch (next.kind) {
      case "login":
        return reply.redirect(loginRedirect(request.url, query, openid !== null, true), 303);
      case "error":
        return sendAuthorizationResponse(
          reply,
          errorResponse(check.request, next.error, next.description),
          requestTranslator(request),
        );
      case "grant":
        return sendAuthorizationResponse(
          reply,
          await oauth.authorize(check.request, principal.user.uid, authenticatedAt, sessionIdOf(principal)),
          requestTranslator(request),
        );
      case "consent":
        return sendPage(
          reply,
          consentPage({
            translator: requestTranslator(request),
            clientName: client.name,
            user,
            logoutUrl: logoutUrl(query, principal, requestedUser),
            scope: check.request.scope,
            redirectUri: check.request.redirectUri,
            selfRegistered: client.registeredAt !== undefined,
          }),
        );
    }
  });

  // The consent form (docs/upstream/owncloud-oauth2.md A.2.4): CSRF checked by the group; `user`
  // and `trusted` are not re-checked. Allow and Deny are the same form, so a denial passes the same
  // CSRF and request checks as a consent. A query that cannot be read is refused before the session
  // is looked at (preValidation runs before the group's preHandler).
  await app.register(
    guarded(CONSENT_FORM, (forms) => {
      forms.post(AUTHORIZE_PATH, { preValidation: authorizationRequestByPostOrMalformedQuery }, async (request, reply) => {
        const { principal } = request;
        const query = strictParams(request.query);
        if (!query.ok) return sendPage(reply, malformedRequestPage(request, requestTranslator(request)), 400);
        const check = await oauth.checkAuthorization(query.params, issuerOf(request), undefined, principal.user.uid);
        if (refusedByGroups(check)) {
          request.log.warn({ event: refusalEvent(check), uid: principal.user.uid }, check.detail);
          return sendAuthorizationFailure(reply, check, {
            user: pageUser(principal),
            logoutUrl: "",
            translator: requestTranslator(request),
          });
        }
        if (check.kind !== "valid") return reply.redirect(DEFAULT_LANDING, 303);
        if ((request.body as Record<string, unknown> | undefined)?.deny !== undefined) {
          request.log.info(
            { event: "oauth2_authorize_denied", uid: principal.user.uid, client: check.request.client.clientId },
            "the user denied an authorization request",
          );
          return sendAuthorizationResponse(reply, denialResponse(check.request), requestTranslator(request));
        }
        const authenticatedAt = principal.session?.authenticatedAt ?? null;
        return sendAuthorizationResponse(
          reply,
          await oauth.authorize(check.request, principal.user.uid, authenticatedAt, sessionIdOf(principal)),
          requestTranslator(request),
        );
      });
    }),
  );

  // The logout link of the switch-user page carries the session's requesttoken in its query.
  await app.register(
    guarded(LOGOUT_LINK, (links) => {
      links.get(LOGOUT_PATH, async (request, reply) => {
        const { principal } = request;
        const query = queryOf(request);
        if (
          !query ||
          typeof query.response_type !== "string" ||
          typeof query.client_id !== "string" ||
          typeof query.redirect_uri !== "string"
        ) {
          return sendPage(reply, malformedRequestPage(request, requestTranslator(request), pageUser(principal)), 400);
        }
        await app.services.sessions.end(principal.session?.token ?? "");
        clearSessionCookie(request, reply);
        const user = typeof query.user === "string" ? query.user : "";
        const back = `${AUTHORIZE_PATH}?${carried(query, user === "" ? {} : { user })}`;
        const hint = user === "" ? "" : `&user=${encodeURIComponent(user)}`;
        return reply.redirect(`/index.php/login?redirect_url=${encodeURIComponent(back)}${hint}`, 303);
      });
    }),
  );

  await app.register(
    guarded(SESSION_PAGE, (pages) => {
      pages.get(AUTHORIZATION_SUCCESSFUL_PATH, async (request, reply) =>
        sendPage(reply, authorizationSuccessfulPage(requestTranslator(request), pageUser(request.principal))),
      );
    }),
  );
}
