import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import type { EndSessionParams } from "../../oidc/end-session.js";
import { auditSessionEnded } from "../audit-sign-in.js";
import { requestTranslator } from "../i18n.js";
import { issuerOf } from "../issuer.js";
import { strictParams } from "../oauth-params.js";
import { END_SESSION_PATH, JWKS_PATH } from "../oauth-paths.js";
import { headerUser, messagePage, sendPage } from "../pages/layout.js";
import { endSessionConfirmPage, loggedOutPage } from "../pages/oidc.js";
import { authenticate, clearSessionCookie } from "../plugins/authentication.js";
import { guarded, SESSION_FORM } from "../plugins/route-guards.js";
import { jwksRouteSchema } from "../schemas/oauth.js";

const END_SESSION_CONFIRM_PATH = `${END_SESSION_PATH}/confirm`;

/** RP-Initiated Logout 1.0 §2 parameters Keystream reads (others, e.g. ui_locales, are ignored). */
const END_SESSION_PARAMS = ["id_token_hint", "client_id", "post_logout_redirect_uri", "state"] as const;

function endSessionParams(source: unknown): EndSessionParams | undefined {
  const parsed = strictParams(source);
  if (!parsed.ok) return undefined;
  const params: Record<string, string> = {};
  for (const name of END_SESSION_PARAMS) {
    const value = parsed.params[name];
    if (value !== undefined && value !== "") params[name] = value;
  }
  return params;
}

const invalidLogout = (request: FastifyRequest, reply: FastifyReply) => {
  const translator = requestTranslator(request);
  const { t } = translator;
  return sendPage(reply, messagePage(translator, t("pages:logout.title"), t("pages:logout.invalidRequest")), 400);
};

/** The JWKS endpoint and RP-initiated logout (`end_session_endpoint`). */
export async function oidcRoutes(app: FastifyInstance): Promise<void> {
  const { oidc, sessions } = app.services;

  // RFC 7517 JWK Set: the public keys that verify ID tokens, the retired ones within their grace period.
  app.get(JWKS_PATH, { schema: jwksRouteSchema }, async (_request, reply) => {
    await oidc.keys.ensure();
    return reply
      .header("content-type", "application/jwk-set+json")
      .header("cache-control", "max-age=300")
      .send(await oidc.keys.publicJwks());
  });

  const finish = async (request: FastifyRequest, reply: FastifyReply, principal: Principal | undefined, to?: string) => {
    if (principal?.session) {
      await sessions.end(principal.session.token);
      request.log.info({ event: "oidc_logout", uid: principal.user.uid }, "user logged out by a relying party");
      auditSessionEnded(request, principal.user.uid, "rp_logout");
    }
    clearSessionCookie(request, reply);
    return to === undefined ? sendPage(reply, loggedOutPage(requestTranslator(request))) : reply.redirect(to, 303);
  };

  /**
   * RP-Initiated Logout 1.0 §2–§3 (src/oidc/end-session.ts checks). Nobody logged in: nothing to
   * end, straight on. A verified `id_token_hint` naming the logged-in user: logged out at once.
   * Otherwise the user is asked (the request alone does not prove they want it).
   */
  const endSession = async (request: FastifyRequest, reply: FastifyReply, source: unknown) => {
    const params = endSessionParams(source);
    if (!params) return invalidLogout(request, reply);
    const check = await oidc.checkEndSession(params, issuerOf(request));
    if (check.kind === "invalid") {
      request.log.info({ event: "oidc_logout_refused", detail: check.detail }, "logout request refused");
      return invalidLogout(request, reply);
    }
    const auth = await authenticate(request);
    const principal = "principal" in auth && auth.principal.method === "session" ? auth.principal : undefined;
    if (!principal || check.hintedSubject === principal.user.uid) return finish(request, reply, principal, check.redirect);
    const csrfToken = principal.session?.csrfToken ?? "";
    return sendPage(
      reply,
      endSessionConfirmPage({
        translator: requestTranslator(request),
        action: END_SESSION_CONFIRM_PATH,
        csrfToken,
        params: { ...params },
        clientName: check.clientName,
        user: headerUser(principal),
      }),
    );
  };

  // §2: the OP supports both GET and POST at the end_session_endpoint.
  app.get(END_SESSION_PATH, (request, reply) => endSession(request, reply, request.query));
  app.post(END_SESSION_PATH, (request, reply) => endSession(request, reply, request.body));

  // The confirmation form (CSRF-checked by the group): the parameters are checked again, then the session ends.
  await app.register(
    guarded(SESSION_FORM, (forms) => {
      forms.post(END_SESSION_CONFIRM_PATH, async (request, reply) => {
        const params = endSessionParams(request.body);
        if (!params) return invalidLogout(request, reply);
        const check = await oidc.checkEndSession(params, issuerOf(request));
        if (check.kind === "invalid") return invalidLogout(request, reply);
        return finish(request, reply, request.principal, check.redirect);
      });
    }),
  );
}
