import type { FastifyReply } from "fastify";
import type { Translator } from "../i18n/index.js";
import type { AuthorizationCheck } from "../oauth/authorize.js";
import type { OAuthError } from "../oauth/domain/errors.js";
import { sendAuthorizationResponse } from "./authorization-response.js";
import { sendPage } from "./pages/layout.js";
import { authorizeErrorPage, notAvailablePage, type PageUser, switchUserPage } from "./pages/oauth.js";

/** RFC 6749 §5.1: token responses are never cached. */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header("cache-control", "no-store").header("pragma", "no-cache");
}

/**
 * The one place an OAuth error becomes an HTTP answer at the token endpoint (RFC 6749 §5.2):
 * JSON `{"error", "error_description"?}`, status 400; `invalid_client` after a Basic attempt is 401
 * with a Basic challenge; an error marked soft (legacy desktop refresh loop) is 200.
 */
export function sendTokenError(reply: FastifyReply, error: OAuthError): FastifyReply {
  let status = 400;
  if (error.softFail) status = 200;
  else if (error.code === "invalid_client" && error.challenged) {
    status = 401;
    reply.header("www-authenticate", 'Basic realm="Keystream", charset="UTF-8"');
  }
  return noStore(reply).status(status).send(error.toJSON());
}

/**
 * A client endpoint (token, revocation, introspection) refused before anything was checked: the
 * address is past its throttle ceiling. RFC 6749 §5.2 has no code for it, so the answer borrows
 * §4.1.2.1's `temporarily_unavailable`, with the wait in Retry-After (RFC 9110 §10.2.3).
 */
export function sendTooManyAttempts(reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  return noStore(reply)
    .status(429)
    .header("retry-after", String(retryAfterSeconds))
    .send({ error: "temporarily_unavailable", error_description: "Too many failed attempts; try again later." });
}

/**
 * A failed authorization request (docs/upstream/owncloud-oauth2.md A.2.2): an unproven request gets the "Request not valid"
 * page (never a redirect to an unregistered URI), a user mismatch the switch-user page, and an
 * error for a proven redirect URI goes there in the request's response mode.
 */
export function sendAuthorizationFailure(
  reply: FastifyReply,
  check: Exclude<AuthorizationCheck, { kind: "valid" }>,
  context: { user: PageUser; logoutUrl: string; translator: Translator },
): FastifyReply {
  switch (check.kind) {
    case "invalid":
      return sendPage(
        reply,
        authorizeErrorPage({
          translator: context.translator,
          reason: check.reason,
          clientName: check.clientName,
          user: context.user,
          reference: reply.request.id,
        }),
        400,
      );
    case "switch_user":
      return sendPage(reply, switchUserPage(context.translator, context.user, check.requestedUser, context.logoutUrl));
    case "redirect":
      return sendAuthorizationResponse(reply, check.response, context.translator);
    case "not_available":
      return sendPage(
        reply,
        notAvailablePage({
          translator: context.translator,
          clientName: check.clientName,
          user: context.user,
          reference: reply.request.id,
        }),
        403,
      );
  }
}
