import type { Translator } from "../../../i18n/index.js";
import { isProviderId, type ProviderId } from "../../../second-factor/providers.js";
import { html, type SafeHtml } from "../../html.js";
import { confirmPasswordField } from "../../pages/password-confirmation.js";
import { totpEnrolment } from "../../pages/second-factor.js";

/** What the TOTP part of the section shows: on, being set up (with its QR code), or off. */
export type TotpState = { kind: "on" } | { kind: "pending"; qrCode: SafeHtml; secret: string } | { kind: "off" };

interface SecondFactorsModel {
  /** Where the section's forms post (`<path>/totp/begin`, …). */
  path: string;
  csrfToken: string;
  /** The forms ask for the password: the session's confirmation is too old. */
  confirm: boolean;
  /** Every user must have a second factor (the host setting). */
  enforced: boolean;
  flash: SafeHtml | undefined;
  totp: TotpState;
  recovery: { unused: number; total: number };
  /** Recovery codes can be made only once a factor is on. */
  hasFactor: boolean;
}

/** A provider's name as people read it. */
export function providerName(t: Translator["t"], id: ProviderId): string {
  return t(`secondFactor:provider.${id}`);
}

/** Personal settings' "Two-factor authentication" section: TOTP, then recovery codes. */
export function secondFactorsSection(translator: Translator, model: SecondFactorsModel): SafeHtml {
  const { t } = translator;
  return html`<h2>${t("secondFactor:settings.title")}</h2>
<p class="muted">${t("secondFactor:settings.intro")}</p>
${model.enforced ? html`<p class="notice" id="second-factor-enforced">${t("secondFactor:settings.enforced")}</p>` : ""}
${model.flash ?? ""}
<h3>${t("secondFactor:provider.totp")}</h3>
${totpPart(translator, model)}
<h3>${t("secondFactor:provider.backup_codes")}</h3>
${recoveryPart(translator, model)}`;
}

function totpPart(translator: Translator, model: SecondFactorsModel): SafeHtml {
  const { t } = translator;
  const { path, csrfToken } = model;
  const token = html`<input type="hidden" name="requesttoken" value="${csrfToken}">`;
  const confirmField = (prefix: string) => (model.confirm ? confirmPasswordField(translator, prefix) : "");
  const state = model.totp;
  if (state.kind === "on") {
    return html`<p id="totp-state"><strong>${t("secondFactor:settings.totp.enabled")}</strong></p>
<form method="post" action="${path}/totp/disable" id="totp-disable-form">${token}${confirmField("totp-disable")}
<div class="actions"><button type="submit" class="danger">${t("secondFactor:settings.totp.disable")}</button></div></form>`;
  }
  if (state.kind === "pending") {
    return html`${totpEnrolment(translator, {
      qrCode: state.qrCode,
      secret: state.secret,
      action: `${path}/totp/enable`,
      fields: [["requesttoken", csrfToken]],
      extra: model.confirm ? confirmPasswordField(translator, "totp-enable") : undefined,
    })}
<form method="post" action="${path}/totp/cancel" id="totp-cancel-form">${token}<button type="submit" class="secondary">${t("secondFactor:settings.totp.cancel")}</button></form>`;
  }
  return html`<p id="totp-state">${t("secondFactor:settings.totp.off")}</p>
<form method="post" action="${path}/totp/begin" id="totp-begin-form">${token}${confirmField("totp-begin")}
<div class="actions"><button type="submit">${t("secondFactor:settings.totp.begin")}</button></div></form>`;
}

function recoveryPart(translator: Translator, model: SecondFactorsModel): SafeHtml {
  const { t } = translator;
  const counts = model.recovery;
  const token = html`<input type="hidden" name="requesttoken" value="${model.csrfToken}">`;
  const confirmField = model.confirm ? confirmPasswordField(translator, "recovery-codes") : "";
  return html`<p id="recovery-code-count">${
    counts.total === 0
      ? t("secondFactor:settings.recovery.none")
      : t("secondFactor:settings.recovery.count", { unused: counts.unused, total: counts.total })
  }</p>
${
  model.hasFactor
    ? html`<form method="post" action="${model.path}/recovery-codes" id="recovery-codes-form">${token}${confirmField}
<div class="actions"><button type="submit">${t("secondFactor:settings.recovery.generate")}</button></div></form>`
    : html`<p class="muted">${t("secondFactor:settings.recovery.needFactor")}</p>`
}`;
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
