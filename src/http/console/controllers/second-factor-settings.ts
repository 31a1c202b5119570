import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../../accounts/authentication.js";
import type { Translator } from "../../../i18n/index.js";
import { totpKeyUri } from "../../../second-factor/domain/totp.js";
import { isProviderId, type ProviderId } from "../../../second-factor/providers.js";
import { html, type SafeHtml } from "../../html.js";
import { userTranslator } from "../../i18n.js";
import { confirmPasswordField } from "../../pages/password-confirmation.js";
import { recoveryCodesList, totpEnrolment } from "../../pages/second-factor.js";
import { CONFIRMED_ADMIN_FORM, CONFIRMED_SESSION_FORM, guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { qrCodeSvg } from "../../qr-code.js";
import { TOTP_ISSUER } from "../../routes/second-factor-login.js";
import { USER_NOTICE_ID, userPagePath } from "../admin-user-paths.js";
import { formField, sendSettingsPage } from "../page.js";
import { passwordConfirmationNeeded } from "../password-confirmation.js";
import { redirectWithFlash } from "../settings-flash.js";
import { SETTINGS_PAGES } from "../settings-sections.js";

const PATH = `${SETTINGS_PAGES.personal.path}/second-factors`;
const SECTION_ID = "second-factors";

/** A provider's name as people read it. */
export function providerName(t: Translator["t"], id: ProviderId): string {
  return t(`secondFactor:provider.${id}`);
}

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
      const { t } = translator;
      const { uid } = principal.user;
      const confirm = await passwordConfirmationNeeded(request, principal);
      const token = html`<input type="hidden" name="requesttoken" value="${csrfToken}">`;
      const confirmField = (prefix: string) => (confirm ? confirmPasswordField(translator, prefix) : "");
      const totpOn = await totp.isEnabledFor(uid);
      const pending = totpOn ? undefined : await totp.pendingSecret(uid);
      let totpPart: SafeHtml;
      if (totpOn) {
        totpPart = html`<p id="totp-state"><strong>${t("secondFactor:settings.totp.enabled")}</strong></p>
<form method="post" action="${PATH}/totp/disable" id="totp-disable-form">${token}${confirmField("totp-disable")}
<div class="actions"><button type="submit" class="danger">${t("secondFactor:settings.totp.disable")}</button></div></form>`;
      } else if (pending !== undefined) {
        totpPart = html`${totpEnrolment(translator, {
          qrCode: await qrCodeSvg(totpKeyUri(pending, TOTP_ISSUER, uid)),
          secret: pending,
          action: `${PATH}/totp/enable`,
          fields: [["requesttoken", csrfToken]],
          extra: confirm ? confirmPasswordField(translator, "totp-enable") : undefined,
        })}
<form method="post" action="${PATH}/totp/cancel" id="totp-cancel-form">${token}<button type="submit" class="secondary">${t("secondFactor:settings.totp.cancel")}</button></form>`;
      } else {
        totpPart = html`<p id="totp-state">${t("secondFactor:settings.totp.off")}</p>
<form method="post" action="${PATH}/totp/begin" id="totp-begin-form">${token}${confirmField("totp-begin")}
<div class="actions"><button type="submit">${t("secondFactor:settings.totp.begin")}</button></div></form>`;
      }
      const counts = await recoveryCodes.counts(uid);
      const hasFactor = await secondFactors.hasSecondFactor(uid);
      const recoveryPart = html`<p id="recovery-code-count">${
        counts.total === 0
          ? t("secondFactor:settings.recovery.none")
          : t("secondFactor:settings.recovery.count", { unused: counts.unused, total: counts.total })
      }</p>
${
  hasFactor
    ? html`<form method="post" action="${PATH}/recovery-codes" id="recovery-codes-form">${token}${confirmField("recovery-codes")}
<div class="actions"><button type="submit">${t("secondFactor:settings.recovery.generate")}</button></div></form>`
    : html`<p class="muted">${t("secondFactor:settings.recovery.needFactor")}</p>`
}`;
      return html`<h2>${t("secondFactor:settings.title")}</h2>
<p class="muted">${t("secondFactor:settings.intro")}</p>
${secondFactors.enforced() ? html`<p class="notice" id="second-factor-enforced">${t("secondFactor:settings.enforced")}</p>` : ""}
${flash ?? ""}
<h3>${t("secondFactor:provider.totp")}</h3>
${totpPart}
<h3>${t("secondFactor:provider.backup_codes")}</h3>
${recoveryPart}`;
    },
  });

  const answer = (request: FastifyRequest, reply: FastifyReply, principal: Principal, status: number, message: SafeHtml) =>
    sendSettingsPage(request, reply, principal, "personal", { sectionId: SECTION_ID, message }, status);
  const notice = (text: string, id: string) => html`<p class="notice" id="${id}">${text}</p>`;
  const problem = (text: string, id: string) => html`<p class="error" id="${id}" role="alert">${text}</p>`;

  await app.register(
    guarded(CONFIRMED_SESSION_FORM, (forms) => {
      forms.post(`${PATH}/totp/begin`, async (request, reply) => {
        const { principal } = request;
        await totp.begin(principal.user.uid);
        return reply.redirect(`${SETTINGS_PAGES.personal.path}#${SECTION_ID}`, 303);
      });

      forms.post(`${PATH}/totp/enable`, async (request, reply) => {
        const { principal } = request;
        const { uid } = principal.user;
        const { t } = userTranslator(request, principal);
        if (!(await totp.confirm(uid, formField(request, "code") ?? ""))) {
          return answer(request, reply, principal, 400, problem(t("secondFactor:totp.wrongCode"), "totp-error"));
        }
        request.log.info({ event: "second_factor_enabled", uid, provider: "totp", ip: request.ip }, "second factor enabled");
        return answer(request, reply, principal, 200, notice(t("secondFactor:settings.totp.enabledNotice"), "totp-enabled"));
      });

      forms.post(`${PATH}/totp/disable`, async (request, reply) => {
        const { principal } = request;
        const { uid } = principal.user;
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
        return answer(request, reply, principal, 200, notice(t("secondFactor:settings.totp.disabledNotice"), "totp-disabled"));
      });

      forms.post(`${PATH}/recovery-codes`, async (request, reply) => {
        const { principal } = request;
        const { uid } = principal.user;
        const translator = userTranslator(request, principal);
        if (!(await secondFactors.hasSecondFactor(uid))) {
          return answer(
            request,
            reply,
            principal,
            409,
            problem(translator.t("secondFactor:settings.recovery.needFactor"), "recovery-error"),
          );
        }
        const codes = await recoveryCodes.regenerate(uid);
        request.log.info({ event: "recovery_codes_generated", uid, ip: request.ip }, "recovery codes generated");
        // Post/redirect/get: the codes travel to the next page view once (settings-flash.ts), never stored readable.
        return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.personal.path, {
          sectionId: SECTION_ID,
          message: recoveryCodesList(translator, uid, codes),
        });
      });
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
      forms.post("/index.php/settings/users/:uid/second-factors/:provider/disable", async (request, reply) => {
        const { principal } = request;
        const { t } = userTranslator(request, principal);
        const { uid, provider } = request.params as { uid: string; provider: string };
        const disabled = isProviderId(provider) ? await secondFactors.disable(uid, provider) : undefined;
        const ok = disabled === true;
        if (ok) {
          request.log.info(
            { event: "second_factor_disabled", uid, provider, by: principal.user.uid, ip: request.ip },
            "second factor disabled by an administrator",
          );
        }
        if (!ok) {
          const message = html`<p class="error" id="users-error">${t("secondFactor:admin.noSuch")}</p>`;
          return sendSettingsPage(request, reply, principal, "users", { sectionId: "users", message }, 404);
        }
        // Post/redirect/get: back to the user's page, which says what happened at the top.
        return redirectWithFlash(request, reply, principal, userPagePath(uid), {
          sectionId: USER_NOTICE_ID,
          message: html`<p class="notice" id="${USER_NOTICE_ID}" role="status">${t("secondFactor:admin.removed", { provider: providerName(t, provider as ProviderId), uid })}</p>`,
        });
      });
    }),
  );
}

/** The users table's cell: each provider the user has on, with a button that removes it. */
export function userFactorsCell(
  t: Translator["t"],
  csrfToken: string,
  uid: string,
  providers: readonly string[] | undefined,
): SafeHtml {
  const ids = (providers ?? []).filter(isProviderId);
  if (ids.length === 0) return html`${t("secondFactor:admin.none")}`;
  return html`<ul class="factor-list">${ids.map(
    (id) =>
      html`<li>${providerName(t, id)}<form method="post" action="/index.php/settings/users/${encodeURIComponent(uid)}/second-factors/${id}/disable"><input type="hidden" name="requesttoken" value="${csrfToken}"><button type="submit" class="danger small" aria-label="${t("secondFactor:admin.removeNamed", { provider: providerName(t, id), uid })}">${t("secondFactor:admin.remove")}</button></form></li>`,
  )}</ul>`;
}
