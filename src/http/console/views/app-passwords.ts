import type { AppPassword } from "../../../accounts/ports.js";
import type { Translator } from "../../../i18n/index.js";
import { html, type SafeHtml } from "../../html.js";
import { confirmPasswordField } from "../../pages/password-confirmation.js";
import { translatedHtml } from "../../pages/translated-html.js";
import { copyButton } from "./copy-button.js";
import { formatDate } from "./format.js";

/** The personal page's app passwords: the list with revoke buttons, and the form that makes one. */
export function appPasswordsSection(
  translator: Translator,
  model: {
    appPasswords: readonly AppPassword[];
    csrfToken: string;
    flash: SafeHtml | undefined;
    /** Creating one needs a recent password confirmation: the form then asks for it. */
    confirm: boolean;
  },
): SafeHtml {
  const { t } = translator;
  const { appPasswords, csrfToken } = model;
  return html`<h2>${t("pages:appPasswords.heading")}</h2>
<p class="muted">${t("pages:appPasswords.intro")}</p>
${model.flash ?? ""}
${
  appPasswords.length === 0
    ? html`<p class="muted" id="app-password-list">${t("pages:appPasswords.none")}</p>`
    : html`<table class="responsive" id="app-password-list"><thead><tr><th scope="col">${t("pages:appPasswords.name")}</th><th scope="col">${t("pages:appPasswords.created")}</th><th scope="col">${t("pages:appPasswords.lastUsed")}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${appPasswords.map(
  (
    p,
  ) => html`<tr><td data-label="${t("pages:appPasswords.name")}">${p.name}</td><td data-label="${t("pages:appPasswords.created")}">${formatDate(translator, p.createdAt)}</td><td data-label="${t("pages:appPasswords.lastUsed")}">${formatDate(translator, p.lastUsedAt)}</td><td class="actions-cell">
<form method="post" action="/index.php/settings/personal/app-passwords/${String(p.id)}/revoke">
<input type="hidden" name="requesttoken" value="${csrfToken}"><button class="danger small" type="submit" aria-label="${t("pages:appPasswords.revokeNamed", { name: p.name })}">${t("pages:appPasswords.revoke")}</button></form></td></tr>`,
)}
</tbody></table>`
}
<form method="post" action="/index.php/settings/personal/app-passwords" id="create-app-password">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="app-password-name">${t("pages:appPasswords.deviceName")}</label>
<input type="text" id="app-password-name" name="name" maxlength="255" required>
${model.confirm ? confirmPasswordField(translator, "app-password") : ""}
<div class="actions"><button type="submit">${t("pages:appPasswords.create")}</button></div>
</form>`;
}

/** The new app password, shown once with its copy button and the user name to use it with. */
export function newAppPasswordNotice(translator: Translator, model: { name: string; secret: string; uid: string }): SafeHtml {
  return html`<div class="notice" id="new-app-password">${translatedHtml(translator, "pages:appPasswords.created.notice", { name: html`<strong>${model.name}</strong>` })}
<p><code class="secret" id="new-app-password-secret">${model.secret}</code> ${copyButton("new-app-password-secret", translator.t)}</p><p>${translatedHtml(translator, "pages:appPasswords.useWith", { uid: html`<strong>${model.uid}</strong>` })}</p></div>`;
}
