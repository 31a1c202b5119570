import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { say } from "../../i18n/index.js";
import { TOTP_ISSUER, totpKeyUri } from "../../second-factor/domain/totp.js";
import { isProviderId } from "../../second-factor/providers.js";
import { sameOriginPath } from "../../security/same-origin.js";
import { formField } from "../console/page.js";
import { requestTranslator } from "../i18n.js";
import { DEFAULT_LANDING } from "../login-landing.js";
import { headerUser, sendPage } from "../pages/layout.js";
import { challengePage, recoveryCodesList, setupDonePage, setupPage, totpEnrolment } from "../pages/second-factor.js";
import {
  CHALLENGE_FORM,
  CHALLENGE_PAGE,
  pendingSessionOf,
  queryRedirect,
  SETUP_FORM,
  SETUP_PAGE,
} from "../pending-login-guards.js";
import {
  clearSessionCookie,
  SECOND_FACTOR_CHALLENGE_PATH,
  SECOND_FACTOR_SETUP_PATH,
  setSessionCookie,
} from "../plugins/authentication.js";
import { guarded } from "../plugins/route-guards.js";
import { qrCodeSvg } from "../qr-code.js";
import { refusalReply } from "../refusals.js";
import { signInContext } from "../sign-in-context.js";

/**
 * The login's second step (docs/security.md "Second factors"): the challenge for a user with a
 * second factor, and, second factors enforced, the setup for a user without one. Each ends the
 * session that passed only the password and starts the login's session with a new id, then goes
 * on to the page the login was for (an OAuth authorization, a Login Flow v2 grant): the way back
 * travels in `redirect_url`, checked to stay on this server as the login's is.
 */
export async function secondFactorLoginRoutes(app: FastifyInstance): Promise<void> {
  await challengeRoutes(app);
  await setupRoutes(app);
}

/** The challenge page and form: a code (or passkey) of one of the user's second factors. */
async function challengeRoutes(app: FastifyInstance): Promise<void> {
  const { secondFactors, signIn } = app.services;

  const renderChallenge = async (
    request: FastifyRequest,
    principal: Principal,
    redirectUrl: string | undefined,
    error?: string,
  ) =>
    challengePage(requestTranslator(request), {
      csrfToken: principal.session?.csrfToken ?? "",
      redirectUrl,
      offered: await secondFactors.offeredTo(principal.user.uid),
      error,
    });

  await app.register(
    guarded(CHALLENGE_PAGE, (pages) => {
      pages.get(SECOND_FACTOR_CHALLENGE_PATH, async (request, reply) =>
        sendPage(reply, await renderChallenge(request, request.principal, queryRedirect(request))),
      );
    }),
  );

  await app.register(
    guarded(CHALLENGE_FORM, (forms) => {
      forms.post(SECOND_FACTOR_CHALLENGE_PATH, async (request, reply) => {
        const { principal } = request;
        const translator = requestTranslator(request);
        const redirectUrl = sameOriginPath(formField(request, "redirect_url"));
        const provider = formField(request, "provider") ?? "";
        const code = formField(request, "code") ?? "";
        const again = async (status: number, error: string) =>
          sendPage(reply, await renderChallenge(request, principal, redirectUrl, error), status);
        if (!isProviderId(provider)) return again(400, translator.t("secondFactor:challenge.wrong"));
        const pending = pendingSessionOf(principal);
        const result = await signIn.withSecondFactor(pending, principal.user.uid, provider, code, signInContext(request));
        if (!result.ok) return again(refusalReply(reply, result), say(translator, result.phrase));
        setSessionCookie(request, reply, result.value.session);
        return reply.redirect(redirectUrl ?? DEFAULT_LANDING, 303);
      });
    }),
  );
}

/** Enforced second factors: the setup of TOTP by a user without a second factor, at the login. */
async function setupRoutes(app: FastifyInstance): Promise<void> {
  const { sessions, secondFactors, signIn, totp, recoveryCodes } = app.services;

  const renderSetup = async (request: FastifyRequest, principal: Principal, redirectUrl: string | undefined, error?: string) => {
    const translator = requestTranslator(request);
    const { uid } = principal.user;
    const secret = (await totp.pendingSecret(uid)) ?? (await totp.begin(uid));
    if (secret === undefined) return undefined;
    const enrolment = totpEnrolment(translator, {
      qrCode: await qrCodeSvg(totpKeyUri(secret, TOTP_ISSUER, uid)),
      secret,
      action: SECOND_FACTOR_SETUP_PATH,
      fields: [
        ["requesttoken", principal.session?.csrfToken ?? ""],
        ["redirect_url", redirectUrl],
      ],
      error,
    });
    return setupPage(translator, principal.session?.csrfToken ?? "", enrolment);
  };

  /** The step is no longer owed as it was (a factor appeared, enforcement ended): log in again. */
  const startOver = async (request: FastifyRequest, reply: FastifyReply, principal: Principal) => {
    if (principal.session) await sessions.end(principal.session.token);
    clearSessionCookie(request, reply);
    return reply.redirect("/index.php/login", 303);
  };

  await app.register(
    guarded(SETUP_PAGE, (pages) => {
      pages.get(SECOND_FACTOR_SETUP_PATH, async (request, reply) => {
        const { principal } = request;
        if ((await secondFactors.stepAfterPassword(principal.user.uid)) !== "second_factor_setup") {
          return startOver(request, reply, principal);
        }
        const page = await renderSetup(request, principal, queryRedirect(request));
        return page === undefined ? startOver(request, reply, principal) : sendPage(reply, page);
      });
    }),
  );

  await app.register(
    guarded(SETUP_FORM, (forms) => {
      forms.post(SECOND_FACTOR_SETUP_PATH, async (request, reply) => {
        const { principal } = request;
        const { uid } = principal.user;
        const translator = requestTranslator(request);
        const redirectUrl = sameOriginPath(formField(request, "redirect_url"));
        if (!(await totp.confirm(uid, formField(request, "code") ?? ""))) {
          const page = await renderSetup(request, principal, redirectUrl, translator.t("secondFactor:totp.wrongCode"));
          return page === undefined ? startOver(request, reply, principal) : sendPage(reply, page, 400);
        }
        request.log.info({ event: "second_factor_enabled", uid, provider: "totp", ip: request.ip }, "second factor enabled");
        request.log.info(
          { event: "second_factor_enforced_setup", uid, provider: "totp", ip: request.ip },
          "enforced second factor set up at login",
        );
        const codes = await recoveryCodes.regenerate(uid);
        request.log.info({ event: "recovery_codes_generated", uid, ip: request.ip }, "recovery codes generated");
        const full = await signIn.completeSecondStep(pendingSessionOf(principal), uid, "totp", signInContext(request));
        setSessionCookie(request, reply, full);
        const user = headerUser({ user: principal.user, method: "session", session: full });
        return sendPage(
          reply,
          setupDonePage(translator, user, recoveryCodesList(translator, uid, codes), redirectUrl ?? DEFAULT_LANDING),
        );
      });
    }),
  );
}
