import type { FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { loginBuckets, loginUserBucket } from "../../security/domain/throttle-policy.js";
import type { AttemptOutcome } from "../../security/throttle.js";
import { userTranslator } from "../i18n.js";
import { headerUser, sendPage } from "../pages/layout.js";
import { CONFIRM_PASSWORD_FIELD, passwordConfirmationPage } from "../pages/password-confirmation.js";
import { type ThrottledResult, throttledAttempt } from "../throttling.js";

/**
 * The user's password, checked as the login form checks it: reserved in the login throttle's
 * buckets (per address and per user name) before the check, a wrong password counted as a failed
 * login, a right one resetting the user's bucket. The one check of a password a logged-in user
 * types again (the password change's current password, a password confirmation), so a session is
 * no way to guess the password faster than the login form allows. `value`: the password is right.
 */
export async function throttledPasswordCheck(
  request: FastifyRequest,
  uid: string,
  password: string,
): Promise<ThrottledResult<boolean>> {
  const { users, loginThrottle } = request.server.services;
  const gate = await throttledAttempt(
    request,
    loginThrottle,
    loginBuckets(request.ip, uid),
    () => users.checkPassword(uid, password),
    (found): AttemptOutcome => (found ? { kind: "success", reset: [loginUserBucket(uid)] } : { kind: "failure" }),
  );
  return gate.refused ? gate : { refused: false, value: gate.value !== undefined };
}

/**
 * Whether a form that needs a recent password confirmation must ask for the password now (the
 * session's confirmation is too old, accounts/password-confirmation.ts): its page then shows the
 * field (pages/password-confirmation.ts `confirmPasswordField`).
 */
export async function passwordConfirmationNeeded(request: FastifyRequest, principal: Principal): Promise<boolean> {
  const session = principal.session;
  return session === undefined || !(await request.server.services.passwordConfirmations.isRecent(session));
}

/**
 * The route guard check `recentPassword` (plugins/route-guards.ts): true when the session's user
 * proved the password within the window, or proves it now with the form's `confirm_password`
 * (checked through the login throttle, then recorded on the session). Otherwise it answers with the
 * confirmation page, which posts the password back to this same action with the action's fields:
 * 403 when the password is missing or wrong, 429 with Retry-After when the throttle refuses.
 */
export async function confirmPasswordOrAsk(request: FastifyRequest, reply: FastifyReply, principal: Principal): Promise<boolean> {
  const { passwordConfirmations, log } = request.server.services;
  const session = principal.session;
  if (!(await passwordConfirmationNeeded(request, principal))) return true;
  const uid = principal.user.uid;
  const { t } = userTranslator(request, principal);
  const given = formFieldsOf(request)[CONFIRM_PASSWORD_FIELD];
  const password = typeof given === "string" ? given : "";
  if (session === undefined || password === "") return ask(request, reply, principal, undefined, 403);
  const checked = await throttledPasswordCheck(request, uid, password);
  if (checked.refused) {
    reply.header("retry-after", String(checked.retryAfterSeconds));
    return ask(request, reply, principal, t("passwordConfirmation:throttled"), 429);
  }
  if (!checked.value) {
    request.log.warn({ event: "password_confirmation_failed", uid, ip: request.ip }, "password confirmation: wrong password");
    return ask(request, reply, principal, t("passwordConfirmation:wrong"), 403);
  }
  await passwordConfirmations.record(session);
  log.info({ event: "password_confirmed", uid, ip: request.ip }, "user confirmed their password");
  return true;
}

/** Answers with the confirmation page, carrying the action's own fields; false, for the guard. */
function ask(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  error: string | undefined,
  status: number,
): false {
  const translator = userTranslator(request, principal);
  const carried = Object.entries(formFieldsOf(request)).flatMap(([name, value]) =>
    name === "requesttoken" || name === CONFIRM_PASSWORD_FIELD
      ? []
      : (Array.isArray(value) ? value : [value]).filter((v) => typeof v === "string").map((v) => [name, v] as const),
  );
  sendPage(
    reply,
    passwordConfirmationPage(translator, { user: headerUser(principal), action: request.url, carried, error }),
    status,
  );
  return false;
}

function formFieldsOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body !== null && typeof body === "object" && !Buffer.isBuffer(body) ? (body as Record<string, unknown>) : {};
}
