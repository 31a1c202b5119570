import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Translator } from "../../i18n/index.js";
import { loginBuckets, loginUserBucket } from "../../security/domain/throttle-policy.js";
import { sameOriginPath } from "../../security/same-origin.js";
import type { AttemptOutcome } from "../../security/throttle.js";
import { auditSessionEnded, auditSignIn, auditSignInFailure } from "../audit-sign-in.js";
import type { SafeHtml } from "../html.js";
import { requestTranslator } from "../i18n.js";
import { clearLoginFormToken, loginFormToken, loginFormTokenValid } from "../login-form-token.js";
import { messagePage, sendPage } from "../pages/layout.js";
import { loginPage } from "../pages/login.js";
import {
  authenticate,
  clearSessionCookie,
  logoutLinkValid,
  pendingStepPath,
  SESSION_COOKIE,
  setSessionCookie,
} from "../plugins/authentication.js";
import { throttledAttempt } from "../throttling.js";

/** Where a login without `redirect_url` lands. */
export const DEFAULT_LANDING = "/index.php/settings/personal";

/**
 * Supplies a note for the login page from the target the visitor will return to, e.g. the OAuth module
 * names the application asking for access (docs/upstream/owncloud-oauth2.md A.2.1). Registered by modules
 * at start.
 */
export type LoginNoteProvider = (redirectUrl: string, translator: Translator) => Promise<SafeHtml | undefined>;

declare module "fastify" {
  interface FastifyInstance {
    loginNoteProviders: LoginNoteProvider[];
  }
}

function field(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

async function notesFor(app: FastifyInstance, redirectUrl: string | undefined, translator: Translator): Promise<SafeHtml[]> {
  if (!redirectUrl) return [];
  const notes = await Promise.all(app.loginNoteProviders.map((provide) => provide(redirectUrl, translator)));
  return notes.filter((n): n is SafeHtml => n !== undefined);
}

export async function loginRoutes(app: FastifyInstance): Promise<void> {
  app.get("/index.php/login", async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const redirectUrl = sameOriginPath(query.redirect_url);
    const auth = await authenticate(request);
    // `prompt=login` (set by the authorization endpoint for OIDC Core §3.1.2.1 `prompt=login` and
    // `max_age`): the form even for a logged-in user, whose new login replaces the session.
    if ("principal" in auth && auth.principal.method === "session" && query.prompt !== "login") {
      return reply.redirect(redirectUrl ?? DEFAULT_LANDING, 303);
    }
    const user = typeof query.user === "string" ? query.user : "";
    const translator = requestTranslator(request);
    const notes = await notesFor(app, redirectUrl, translator);
    return sendPage(reply, loginPage({ translator, csrfToken: loginFormToken(request, reply), redirectUrl, user, notes }));
  });

  app.post("/index.php/login", async (request, reply) => {
    const { users, sessions, loginThrottle, secondFactors, log } = app.services;
    const redirectUrl = sameOriginPath(field(request.body, "redirect_url"));
    const uid = (field(request.body, "user") ?? "").trim();
    const password = field(request.body, "password") ?? "";
    const translator = requestTranslator(request);
    const { t } = translator;
    const again = async (status: number, error: string) =>
      sendPage(
        reply,
        loginPage({
          translator,
          csrfToken: loginFormToken(request, reply),
          redirectUrl,
          user: uid,
          error,
          notes: await notesFor(app, redirectUrl, translator),
        }),
        status,
      );

    if (!loginFormTokenValid(request)) return again(403, t("pages:login.error.expired"));
    if (uid === "" || password === "") return again(400, t("pages:login.error.empty"));

    // Every attempt is reserved per IP and per user before the password is checked (all nodes,
    // concurrent attempts included); past the ceiling it is refused (429) without looking at it.
    const gate = await throttledAttempt(
      request,
      loginThrottle,
      loginBuckets(request.ip, uid),
      () => users.checkPassword(uid, password),
      (found): AttemptOutcome =>
        !found ? { kind: "failure" } : found.enabled ? { kind: "success", reset: [loginUserBucket(uid)] } : { kind: "uncounted" },
    );
    if (gate.refused) {
      request.log.warn({ event: "login_throttled", uid, ip: request.ip }, "login refused: too many failed attempts");
      auditSignInFailure(request, uid, "password", "throttled");
      reply.header("retry-after", String(gate.retryAfterSeconds));
      return again(429, t("pages:login.error.throttled"));
    }

    const user = gate.value;
    if (!user) {
      // A warning, as Nextcloud logs them: what an alert on failed logins watches.
      request.log.warn({ event: "login_failed", uid, ip: request.ip }, "login failed");
      auditSignInFailure(request, uid, "password", "wrong_credentials");
      return again(401, t("pages:login.error.wrong"));
    }
    if (!user.enabled) {
      log.info({ event: "login_refused_disabled", uid, ip: request.ip }, "login refused: user disabled");
      auditSignInFailure(request, uid, "password", "disabled");
      return again(403, t("pages:login.error.disabled"));
    }
    // The session starts here, at the login, with a new id: a session id planted before the login
    // (or the one a `prompt=login` replaces) is ended and worth nothing after it.
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) await sessions.end(previous);
    // A user with a second factor (or, enforced, without one yet) gets a session that owes that
    // step: no principal anywhere until the challenge or the setup completes it (a new id then).
    const pending = await secondFactors.stepAfterPassword(user.uid);
    const loggedIn = await sessions.start(user.uid, request.headers["user-agent"], pending);
    setSessionCookie(request, reply, loggedIn);
    clearLoginFormToken(request, reply);
    if (pending !== null) {
      request.log.info(
        { event: "login_password_passed", uid: user.uid, ip: request.ip, pending },
        "password right; second factor owed",
      );
      const back = redirectUrl === undefined ? "" : `?redirect_url=${encodeURIComponent(redirectUrl)}`;
      return reply.redirect(`${pendingStepPath(pending)}${back}`, 303);
    }
    log.info({ event: "login", uid: user.uid, ip: request.ip }, "user logged in");
    auditSignIn(request, user.uid, "password");
    return reply.redirect(redirectUrl ?? DEFAULT_LANDING, 303);
  });

  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    const { sessions } = app.services;
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await sessions.find(token) : undefined;
    if (session && !logoutLinkValid(request, session)) {
      const translator = requestTranslator(request);
      const { t } = translator;
      return sendPage(reply, messagePage(translator, t("pages:logout.title"), t("pages:logout.invalidLink")), 403);
    }
    if (session) {
      await sessions.end(session.token);
      // An anonymous session (the login form's) is no sign-in that ends.
      if (session.uid !== null && session.pending === null) auditSessionEnded(request, session.uid, "logout");
    }
    clearSessionCookie(request, reply);
    const query = request.query as Record<string, unknown>;
    const next = sameOriginPath(query.redirect_url);
    return reply.redirect(next ? `/index.php/login?redirect_url=${encodeURIComponent(next)}` : "/index.php/login", 303);
  };
  app.post("/index.php/logout", logout);
  // ownCloud's logout link is a GET carrying the requesttoken in the query
  // (docs/upstream/owncloud-oauth2.md A.2.5).
  app.get("/index.php/logout", logout);
}
