import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sha256Hex } from "../../crypto/secrets.js";
import { say } from "../../i18n/index.js";
import { sameOriginPath } from "../../security/same-origin.js";
import { siteOrigin } from "../base-url.js";
import { formField } from "../console/page.js";
import { requestTranslator } from "../i18n.js";
import { clearLoginFormToken, loginFormBrowser } from "../login-form-token.js";
import { DEFAULT_LANDING } from "../login-landing.js";
import { passkeyScriptRoutes } from "../passkey-scripts.js";
import { CHALLENGE_FORM } from "../pending-login-guards.js";
import { setSessionCookie } from "../plugins/authentication.js";
import { guarded } from "../plugins/route-guards.js";
import { refusalReply } from "../refusals.js";
import { signInContext } from "../sign-in-context.js";

export const PASSKEY_OPTIONS_PATH = "/index.php/login/passkey/options";
export const PASSKEY_SIGN_IN_PATH = "/index.php/login/passkey";
export const PASSKEY_CHALLENGE_OPTIONS_PATH = "/index.php/login/challenge/passkey-options";

function refuse(reply: FastifyReply, status: number, error: string): FastifyReply {
  return reply.status(status).header("cache-control", "no-store").send({ error });
}

/** The binding of a sign-in's challenge: the hash of the browser's login form nonce. */
function signInBinding(request: FastifyRequest) {
  const browser = loginFormBrowser(request);
  return browser === undefined ? undefined : ({ kind: "sign_in", browser: sha256Hex(browser) } as const);
}

/**
 * Passwordless sign-in with a passkey (docs/security.md "Passkeys"), and the options for a passkey
 * as the second factor on the challenge page. A sign-in needs the login form's token (the login's
 * own CSRF defence, http/login-form-token.ts) and its challenge is bound to that browser; the
 * assertion is throttled per address like the challenge. A passkey verified with user
 * verification is both factors: the session starts complete, with a new id, and the answer names
 * where the login was going (`redirect_url`, kept on this server).
 */
export async function passkeyLoginRoutes(app: FastifyInstance): Promise<void> {
  const { passkeys, signIn } = app.services;
  passkeyScriptRoutes(app);

  app.post(PASSKEY_OPTIONS_PATH, async (request, reply) => {
    const binding = signInBinding(request);
    if (binding === undefined) return refuse(reply, 403, requestTranslator(request).t("pages:login.error.expired"));
    return reply.header("cache-control", "no-store").send(await passkeys.authenticationOptions(binding, siteOrigin(request)));
  });

  app.post(PASSKEY_SIGN_IN_PATH, async (request, reply) => {
    const translator = requestTranslator(request);
    const binding = signInBinding(request);
    if (binding === undefined) return refuse(reply, 403, translator.t("pages:login.error.expired"));
    const redirectUrl = sameOriginPath(formField(request, "redirect_url"));
    const result = await signIn.withPasskey(binding, formField(request, "response") ?? "", signInContext(request));
    if (!result.ok) return refuse(reply, refusalReply(reply, result), say(translator, result.phrase));
    setSessionCookie(request, reply, result.value.session);
    clearLoginFormToken(request, reply);
    return reply.header("cache-control", "no-store").send({ redirect: redirectUrl ?? DEFAULT_LANDING });
  });

  await app.register(
    guarded(CHALLENGE_FORM, (forms) => {
      forms.post(PASSKEY_CHALLENGE_OPTIONS_PATH, async (request, reply) => {
        const binding = { kind: "second_factor", uid: request.principal.user.uid } as const;
        return reply.header("cache-control", "no-store").send(await passkeys.authenticationOptions(binding, siteOrigin(request)));
      });
    }),
  );
}
