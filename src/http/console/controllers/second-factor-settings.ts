import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../../accounts/authentication.js";
import { TOTP_ISSUER, totpKeyUri } from "../../../second-factor/domain/totp.js";
import { isProviderId, type ProviderId } from "../../../second-factor/providers.js";
import { userTranslator } from "../../i18n.js";
import { recoveryCodesList } from "../../pages/second-factor.js";
import { CONFIRMED_ADMIN_FORM, CONFIRMED_SESSION_FORM, guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { qrCodeSvg } from "../../qr-code.js";
import { USER_NOTICE_ID, userPagePath } from "../admin-user-paths.js";
import { answerInSection, formField } from "../page.js";
import { passwordConfirmationNeeded } from "../password-confirmation.js";
import { redirectWithFlash } from "../settings-flash.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { outcomeParagraph } from "../views/messages.js";
import { providerName, secondFactorsSection, type TotpState } from "../views/second-factors.js";

const PATH = `${SETTINGS_PAGES.personal.path}/second-factors`;
const SECTION_ID = "second-factors";

/**
 * Personal settings' "Two-factor authentication" section and its forms: TOTP set up (QR code and
 * key, enabled by a correct code), disabled; recovery codes made anew, shown once. Every form that
 * changes how the account is proven needs a recent password confirmation (CONFIRMED_SESSION_FORM,
 * docs/decisions.md "Password confirmation"); abandoning an unfinished setup does not. And the
 * administrator's removal of a user's provider, from the users table.
 */
export async function secondFactorSettingsRoutes(app: FastifyInstance): Promise<void> {
  const { secondFactors, totp, recoveryCodes } = app.services;

  app.settingsSections.push({
    id: SECTION_ID,
    page: "personal",
    order: 15,
    render: async ({ request, principal, csrfToken, flash, translator }) => {
      const { uid } = principal.user;
      const confirm = await passwordConfirmationNeeded(request, principal);
      return secondFactorsSection(translator, {
        path: PATH,
        csrfToken,
        confirm,
        enforced: secondFactors.enforced(),
        flash,
        totp: await totpState(request, uid),
        recovery: await recoveryCodes.counts(uid),
        hasFactor: await secondFactors.hasSecondFactor(uid),
      });
    },
  });

  await app.register(
    guarded(CONFIRMED_SESSION_FORM, (forms) => {
      forms.post(`${PATH}/totp/begin`, async (request, reply) => {
        const { principal } = request;
        await totp.begin(principal.user.uid);
        return reply.redirect(`${SETTINGS_PAGES.personal.path}#${SECTION_ID}`, 303);
      });
      forms.post(`${PATH}/totp/enable`, enableTotp);
      forms.post(`${PATH}/totp/disable`, disableTotp);
      forms.post(`${PATH}/recovery-codes`, regenerateRecoveryCodes);
    }),
  );

  await app.register(
    guarded(SESSION_FORM, (forms) => {
      forms.post(`${PATH}/totp/cancel`, async (request, reply) => {
        await totp.cancel(request.principal.user.uid);
        return reply.redirect(`${SETTINGS_PAGES.personal.path}#${SECTION_ID}`, 303);
      });
    }),
  );

  // The administrator removes a provider of a user who lost it (as ./occ twofactorauth:disable).
  await app.register(
    guarded(CONFIRMED_ADMIN_FORM, (forms) => {
      forms.post("/index.php/settings/users/:uid/second-factors/:provider/disable", removeUserFactor);
    }),
  );
}

async function totpState(request: FastifyRequest, uid: string): Promise<TotpState> {
  const { totp } = request.server.services;
  if (await totp.isEnabledFor(uid)) return { kind: "on" };
  const pending = await totp.pendingSecret(uid);
  if (pending === undefined) return { kind: "off" };
  return { kind: "pending", qrCode: await qrCodeSvg(totpKeyUri(pending, TOTP_ISSUER, uid)), secret: pending };
}

/** The section again with a notice, or an error read out at once (`role="alert"`). */
function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  outcome: { ok: boolean; text: string; id: string; status: number },
): Promise<FastifyReply> {
  const role = outcome.ok ? undefined : ("alert" as const);
  return answerInSection(request, reply, principal, {
    page: "personal",
    sectionId: SECTION_ID,
    ...outcome,
    ...(role && { role }),
  });
}

async function enableTotp(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal } = request;
  const { uid } = principal.user;
  const { t } = userTranslator(request, principal);
  if (!(await request.server.services.totp.confirm(uid, formField(request, "code") ?? ""))) {
    return answer(request, reply, principal, {
      ok: false,
      text: t("secondFactor:totp.wrongCode"),
      id: "totp-error",
      status: 400,
    });
  }
  request.log.info({ event: "second_factor_enabled", uid, provider: "totp", ip: request.ip }, "second factor enabled");
  const text = t("secondFactor:settings.totp.enabledNotice");
  return answer(request, reply, principal, { ok: true, text, id: "totp-enabled", status: 200 });
}

async function disableTotp(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal } = request;
  const { uid } = principal.user;
  const { totp, secondFactors, recoveryCodes } = request.server.services;
  const { t } = userTranslator(request, principal);
  const disabled = await totp.disableFor(uid);
  // Recovery codes stand in for a factor; without one left they would only be a way around it later.
  if (!(await secondFactors.hasSecondFactor(uid))) await recoveryCodes.disableFor(uid);
  if (disabled) {
    request.log.info(
      { event: "second_factor_disabled", uid, provider: "totp", by: uid, ip: request.ip },
      "second factor disabled",
    );
  }
  const text = t("secondFactor:settings.totp.disabledNotice");
  return answer(request, reply, principal, { ok: true, text, id: "totp-disabled", status: 200 });
}

async function regenerateRecoveryCodes(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal } = request;
  const { uid } = principal.user;
  const { secondFactors, recoveryCodes } = request.server.services;
  const translator = userTranslator(request, principal);
  if (!(await secondFactors.hasSecondFactor(uid))) {
    const text = translator.t("secondFactor:settings.recovery.needFactor");
    return answer(request, reply, principal, { ok: false, text, id: "recovery-error", status: 409 });
  }
  const codes = await recoveryCodes.regenerate(uid);
  request.log.info({ event: "recovery_codes_generated", uid, ip: request.ip }, "recovery codes generated");
  // Post/redirect/get: the codes travel to the next page view once (settings-flash.ts), never stored readable.
  return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.personal.path, {
    sectionId: SECTION_ID,
    message: recoveryCodesList(translator, uid, codes),
  });
}

async function removeUserFactor(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal } = request;
  const { t } = userTranslator(request, principal);
  const { uid, provider } = request.params as { uid: string; provider: string };
  const disabled = isProviderId(provider) ? await request.server.services.secondFactors.disable(uid, provider) : undefined;
  const ok = disabled === true;
  if (ok) {
    request.log.info(
      { event: "second_factor_disabled", uid, provider, by: principal.user.uid, ip: request.ip },
      "second factor disabled by an administrator",
    );
  }
  if (!ok) {
    const text = t("secondFactor:admin.noSuch");
    return answerInSection(request, reply, principal, {
      page: "users",
      sectionId: "users",
      ok,
      text,
      id: "users-error",
      status: 404,
    });
  }
  // Post/redirect/get: back to the user's page, which says what happened at the top.
  const text = t("secondFactor:admin.removed", { provider: providerName(t, provider as ProviderId), uid });
  return redirectWithFlash(request, reply, principal, userPagePath(uid), {
    sectionId: USER_NOTICE_ID,
    message: outcomeParagraph(true, text, USER_NOTICE_ID, "status"),
  });
}
