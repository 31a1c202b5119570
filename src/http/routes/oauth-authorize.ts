import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { sessionId } from "../../accounts/sessions.js";
import type { Translator } from "../../i18n/index.js";
import type { AuthorizationResponse } from "../../oauth/authorization-response.js";
import {
  type AuthorizationCheck,
  type AuthorizationRequest,
  denialResponse,
  errorResponse,
  trustedForScope,
} from "../../oauth/authorize.js";
import { promptValues } from "../../oauth/openid-request.js";
import { decideInteraction, type Interaction } from "../../oidc/interaction.js";
import {
  isOpenId,
  LOGOUT_PATH,
  loginAfterLogout,
  loginRedirect,
  logoutUrl,
  queryOf,
  requestedUserOf,
} from "../authorization-request-query.js";
import { formPostScriptRoute, sendAuthorizationResponse } from "../authorization-response.js";
import type { SafeHtml } from "../html.js";
import { requestTranslator } from "../i18n.js";
import { issuerOf } from "../issuer.js";
import { DEFAULT_LANDING } from "../login-landing.js";
import { sendAuthorizationFailure } from "../oauth-errors.js";
import { strictParams } from "../oauth-params.js";
import { AUTHORIZATION_SUCCESSFUL_PATH, AUTHORIZE_PATH } from "../oauth-paths.js";
import { headerUser, messagePage, sendPage } from "../pages/layout.js";
import { authorizationSuccessfulPage, authorizeErrorPage, consentPage, type PageUser } from "../pages/oauth.js";
import { translatedHtml } from "../pages/translated-html.js";
import { authenticate, clearSessionCookie } from "../plugins/authentication.js";
import { guarded, logoutLinkToken, type RouteGuard, SESSION_FORM, SESSION_PAGE, sessionUser } from "../plugins/route-guards.js";

function pageUser(principal: Principal): PageUser {
  return { uid: principal.user.uid, ...headerUser(principal) };
}

/** The page for a request whose parameters could not even be read (repeated, not strings). */
function malformedRequestPage(request: FastifyRequest, translator: Translator, user?: PageUser): SafeHtml {
  return authorizeErrorPage({ translator, reason: "invalid_parameters", clientName: null, user, reference: request.id });
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

/** The session an authorization is granted in (its id hash), for the ID tokens' `sid`. */
function sessionIdOf(principal: Principal): string | null {
  return principal.session ? sessionId(principal.session) : null;
}

/** An authorization request checked valid, in the session of `principal`, as read from `query`. */
interface SessionRequest {
  query: Record<string, string>;
  request: AuthorizationRequest;
  principal: Principal;
}

/** The code or tokens of an authorization request, issued in the user's session. */
async function grantInSession(app: FastifyInstance, { request, principal }: SessionRequest): Promise<AuthorizationResponse> {
  const authenticatedAt = principal.session?.authenticatedAt ?? null;
  return app.services.oauth.authorize(request, principal.user.uid, authenticatedAt, sessionIdOf(principal));
}

/**
 * OIDC Core §3.1.2.1 `prompt=none` with nobody logged in: no login page. Once the client and
 * redirect URI are proven, `login_required` goes to the redirect URI (an unproven request gets the
 * error page as always). Undefined for any other request: on to the login page.
 */
async function silentAnswerWithoutSession(
  app: FastifyInstance,
  request: FastifyRequest,
  query: Record<string, string>,
  issuer: string,
): Promise<{ kind: "page"; page: SafeHtml } | { kind: "response"; response: AuthorizationResponse } | undefined> {
  if (!isOpenId(query) || !promptValues(query).has("none")) return undefined;
  const check = await app.services.oauth.checkAuthorization(query, issuer);
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
}

/** The authorization request of a browser with no session: the silent answer, else the login page and back. */
async function answerWithoutSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  query: Record<string, string>,
): Promise<FastifyReply> {
  const silent = await silentAnswerWithoutSession(app, request, query, issuerOf(request));
  if (silent) {
    return silent.kind === "page"
      ? sendPage(reply, silent.page, 400)
      : sendAuthorizationResponse(reply, silent.response, requestTranslator(request));
  }
  // Not logged in: to the login page and back.
  return reply.redirect(loginRedirect(request.url, query, isOpenId(query), false), 303);
}

/** What the session's user is asked next (OIDC Core §3.1.2.1 `prompt`, `max_age`): login, an error, consent or the grant. */
async function nextInteraction(app: FastifyInstance, { request, principal }: SessionRequest): Promise<Interaction> {
  const { openid } = request;
  return decideInteraction({
    openid,
    session: { uid: principal.user.uid, authenticatedAt: principal.session?.authenticatedAt ?? 0 },
    now: app.services.clock.nowSeconds(),
    trustedForScope: trustedForScope(request),
    // Only `prompt=none` needs to know (a query per request otherwise wasted).
    consentedBefore:
      openid?.prompt.has("none") === true &&
      (await app.services.oauth.consentedTo(principal.user.uid, request.client.id, request.scope)),
  });
}

/** Answers a valid authorization request in a session with the interaction decided for it. */
async function sendInteraction(
  app: FastifyInstance,
  httpRequest: FastifyRequest,
  reply: FastifyReply,
  checked: SessionRequest,
): Promise<FastifyReply> {
  const { query, request, principal } = checked;
  const next = await nextInteraction(app, checked);
  switch (next.kind) {
    case "login":
      return reply.redirect(loginRedirect(httpRequest.url, query, request.openid !== null, true), 303);
    case "error":
      return sendAuthorizationResponse(
        reply,
        errorResponse(request, next.error, next.description),
        requestTranslator(httpRequest),
      );
    case "grant":
      return sendAuthorizationResponse(reply, await grantInSession(app, checked), requestTranslator(httpRequest));
    case "consent":
      return sendPage(
        reply,
        consentPage({
          translator: requestTranslator(httpRequest),
          clientName: request.client.name,
          user: pageUser(principal),
          logoutUrl: logoutUrl(query, principal, requestedUserOf(query)),
          scope: request.scope,
          redirectUri: request.redirectUri,
          selfRegistered: request.client.registeredAt !== undefined,
        }),
      );
  }
}

/** `GET /index.php/apps/oauth2/authorize`: the authorization request (RFC 6749 §4.1.1, OIDC Core §3.1.2.1). */
async function authorizationRequestPage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const query = queryOf(request);
  if (!query) return sendPage(reply, malformedRequestPage(request, requestTranslator(request)), 400);
  const auth = await authenticate(request);
  if (!("principal" in auth) || auth.principal.method !== "session") return answerWithoutSession(app, request, reply, query);
  const principal = auth.principal;
  const check = await app.services.oauth.checkAuthorization(query, issuerOf(request), principal.user.uid);
  if (check.kind !== "valid") {
    const user = pageUser(principal);
    // The client's or the user's mistake, not a server fault: a warning, on the request's log (its
    // reqId is the reference the error page shows).
    if (check.kind !== "switch_user") request.log.warn({ event: refusalEvent(check), uid: user.uid }, check.detail);
    return sendAuthorizationFailure(reply, check, {
      user,
      logoutUrl: logoutUrl(query, principal, requestedUserOf(query)),
      translator: requestTranslator(request),
    });
  }
  return sendInteraction(app, request, reply, { query, request: check.request, principal });
}

/**
 * The consent form (docs/upstream/owncloud-oauth2.md A.2.4): CSRF checked by the group; `user`
 * and `trusted` are not re-checked. Allow and Deny are the same form, so a denial passes the same
 * CSRF and request checks as a consent.
 */
async function consentAnswer(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal } = request;
  const query = strictParams(request.query);
  if (!query.ok) return sendPage(reply, malformedRequestPage(request, requestTranslator(request)), 400);
  const check = await app.services.oauth.checkAuthorization(query.params, issuerOf(request), undefined, principal.user.uid);
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
  const granted = await grantInSession(app, { query: query.params, request: check.request, principal });
  return sendAuthorizationResponse(reply, granted, requestTranslator(request));
}

/** The switch-user page's logout link: ends the session, then to login and back to the same request. */
async function logoutAndBack(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
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
  return reply.redirect(loginAfterLogout(query), 303);
}

/** `GET|POST /index.php/apps/oauth2/authorize`, the logout helper, and the success page. */
export async function oauthAuthorizeRoutes(app: FastifyInstance): Promise<void> {
  const { oauth } = app.services;

  // The login page names the application asking for access (docs/upstream/owncloud-oauth2.md A.2.1).
  app.loginNoteProviders.push(async (redirectUrl, translator) => {
    const name = await oauth.clientNameForReturnUrl(redirectUrl);
    return name === undefined ? undefined : translatedHtml(translator, "pages:login.applicationNote", { name });
  });

  formPostScriptRoute(app);

  app.get(AUTHORIZE_PATH, async (request, reply) => authorizationRequestPage(app, request, reply));

  // A query that cannot be read is refused before the session is looked at (preValidation runs
  // before the group's preHandler).
  await app.register(
    guarded(CONSENT_FORM, (forms) => {
      forms.post(AUTHORIZE_PATH, { preValidation: authorizationRequestByPostOrMalformedQuery }, async (request, reply) =>
        consentAnswer(app, request, reply),
      );
    }),
  );

  // The logout link of the switch-user page carries the session's requesttoken in its query.
  await app.register(
    guarded(LOGOUT_LINK, (links) => {
      links.get(LOGOUT_PATH, async (request, reply) => logoutAndBack(app, request, reply));
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
