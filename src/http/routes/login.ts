import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { say, type Translator } from "../../i18n/index.js";
import { sameOriginPath } from "../../security/same-origin.js";
import { auditSessionEnded } from "../audit-sign-in.js";
import type { SafeHtml } from "../html.js";
import { requestTranslator } from "../i18n.js";
import { clearLoginFormToken, loginFormToken, loginFormTokenValid } from "../login-form-token.js";
import { DEFAULT_LANDING } from "../login-landing.js";
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
import { refusalReply } from "../refusals.js";
import { signInContext } from "../sign-in-context.js";

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
    const result = await app.services.signIn.withPassword(uid, password, signInContext(request));
    if (!result.ok) return again(refusalReply(reply, result), say(translator, result.phrase));
    const { session, pendingStep } = result.value;
    setSessionCookie(request, reply, session);
    clearLoginFormToken(request, reply);
    if (pendingStep !== null) {
      const back = redirectUrl === undefined ? "" : `?redirect_url=${encodeURIComponent(redirectUrl)}`;
      return reply.redirect(`${pendingStepPath(pendingStep)}${back}`, 303);
    }
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
