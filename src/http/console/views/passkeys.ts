import type { Translator } from "../../../i18n/index.js";
import type { PasskeyRecord } from "../../../second-factor/ports.js";
import { html, type SafeHtml } from "../../html.js";
import { passkeyScripts } from "../../pages/passkey-scripts.js";
import { confirmPasswordField } from "../../pages/password-confirmation.js";
import { formatDate } from "./format.js";

interface PasskeysModel {
  /** Where the section's forms post (`<path>/remove`, `<path>/options`). */
  path: string;
  passkeys: readonly PasskeyRecord[];
  csrfToken: string;
  /** The forms ask for the password: the session's confirmation is too old. */
  confirm: boolean;
  flash: SafeHtml | undefined;
}

/** Personal settings' passkeys: the list, each removable, and the form the passkey script registers with. */
export function passkeysSection(translator: Translator, model: PasskeysModel): SafeHtml {
  const { t } = translator;
  const { path, csrfToken, confirm } = model;
  return html`<h3>${t("secondFactor:provider.webauthn")}</h3>
<p class="muted">${t("secondFactor:passkey.settingsIntro")}</p>
${model.flash ?? ""}
${passkeyTable(translator, model)}
<form method="post" action="${path}" id="passkey-add-form" data-passkey-register data-options="${path}/options" data-status="passkey-add-status" data-working="${t("secondFactor:passkey.working")}" data-failed="${t("secondFactor:passkey.failed")}" data-confirm-failed="${t("secondFactor:passkey.confirmFailed")}" data-unsupported="${t("secondFactor:passkey.unsupported")}">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="passkey-name">${t("secondFactor:passkey.nameLabel")}</label>
<input type="text" id="passkey-name" name="name" maxlength="64" autocomplete="off">
${confirm ? confirmPasswordField(translator, "passkey-add") : ""}
<div class="actions"><button type="submit" id="passkey-add-submit">${t("secondFactor:passkey.add")}</button></div>
<p id="passkey-add-status" role="status" aria-live="polite"></p>
<noscript><p class="muted">${t("secondFactor:passkey.needsScript")}</p></noscript>
</form>
${passkeyScripts()}`;
}

function passkeyTable(translator: Translator, model: PasskeysModel): SafeHtml {
  const { t } = translator;
  const { path, csrfToken, confirm } = model;
  const col = {
    name: t("secondFactor:passkey.columnName"),
    created: t("secondFactor:passkey.columnCreated"),
    lastUsed: t("secondFactor:passkey.columnLastUsed"),
  };
  if (model.passkeys.length === 0) return html`<p id="passkey-none">${t("secondFactor:passkey.none")}</p>`;
  return html`<table class="responsive" id="passkey-list"><caption>${t("secondFactor:passkey.tableCaption")}</caption><thead><tr><th scope="col">${col.name}</th><th scope="col">${col.created}</th><th scope="col">${col.lastUsed}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${model.passkeys.map(
  (p) =>
    html`<tr><td data-label="${col.name}">${p.name}</td><td data-label="${col.created}">${formatDate(translator, p.createdAt)}</td><td data-label="${col.lastUsed}">${formatDate(translator, p.lastUsedAt)}</td><td class="actions-cell"><form method="post" action="${path}/remove"><input type="hidden" name="requesttoken" value="${csrfToken}"><input type="hidden" name="credential" value="${p.id}">${confirm ? confirmPasswordField(translator, `passkey-remove-${p.id.slice(0, 16)}`) : ""}<button type="submit" class="danger small" aria-label="${t("secondFactor:passkey.removeNamed", { name: p.name })}">${t("secondFactor:passkey.remove")}</button></form></td></tr>`,
)}
</tbody></table>`;
}
