import type { FastifyInstance, FastifyReply } from "fastify";
import type { Translator } from "../i18n/index.js";
import { type AuthorizationResponse, presentParameters, redirectLocation } from "../oauth/authorization-response.js";
import { FORM_POST_SCRIPT, FORM_POST_SCRIPT_PATH, formPostPage } from "./pages/form-post.js";
import { sendPage } from "./pages/layout.js";

/**
 * The one place an authorization response (a code, a token or an error for a proven redirect URI)
 * becomes an HTTP answer: a 303 to the redirect URI with the parameters in its query or fragment,
 * or, for `response_mode=form_post` (OAuth 2.0 Form Post Response Mode §2), a 200 page whose form
 * the browser posts to the redirect URI.
 */
export function sendAuthorizationResponse(
  reply: FastifyReply,
  response: AuthorizationResponse,
  translator: Translator,
): FastifyReply {
  if (response.mode === "form_post") {
    return sendPage(reply, formPostPage(translator, response.redirectUri, presentParameters(response)));
  }
  return reply.redirect(redirectLocation({ ...response, mode: response.mode }), 303);
}

/** The form_post page's script (http/pages/form-post.ts), cacheable like any static file. */
export function formPostScriptRoute(app: FastifyInstance): void {
  app.get(FORM_POST_SCRIPT_PATH, async (_request, reply) =>
    reply
      .header("content-type", "text/javascript; charset=utf-8")
      .header("x-content-type-options", "nosniff")
      .header("cache-control", "public, max-age=3600")
      .send(FORM_POST_SCRIPT),
  );
}
