import type { Translator } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";
import { layout } from "./layout.js";
import { type PageUser, userLabel } from "./oauth.js";
import { confirmPasswordField } from "./password-confirmation.js";
import { translatedHtml } from "./translated-html.js";

/**
 * Login Flow v2's browser pages (nextcloud/server core/Controller/ClientFlowLoginV2Controller.php);
 * texts in the `loginFlow` catalogue.
 */

/** The login page's note while a flow waits for the visitor to log in. */
export function loginFlowLoginNote(translator: Translator, clientName: string): SafeHtml {
  return html`${translator.t("loginFlow:loginNote", { name: clientName })}`;
}

/**
 * The grant page: names the application and the account, and warns against a link someone else
 * sent (whoever started the flow receives the app password: the one way this flow is abused).
 * `confirmPassword`: the session's password confirmation is too old, so the grant form asks for it.
 */
export function loginFlowGrantPage(
  translator: Translator,
  model: { clientName: string; user: PageUser; actionBase: string; confirmPassword: boolean },
): SafeHtml {
  const { t } = translator;
  return layout({
    translator,
    title: t("loginFlow:grant.title"),
    user: model.user,
    body: html`<h1>${t("loginFlow:grant.title")}</h1>
<p id="login-flow-client">${translatedHtml(translator, "loginFlow:grant.client", { name: html`<strong>${model.clientName}</strong>` })}</p>
<p id="login-flow-account">${translatedHtml(translator, "loginFlow:grant.account", { user: userLabel(model.user) })}</p>
<p class="error" role="note">${t("loginFlow:grant.warning")}</p>
<form method="post" action="${model.actionBase}/grant" id="login-flow-grant">
<input type="hidden" name="requesttoken" value="${model.user.csrfToken}">
${model.confirmPassword ? confirmPasswordField(translator, "login-flow") : ""}
<p><button type="submit" id="grant-access">${t("loginFlow:grant.allow")}</button></p>
</form>
<form method="post" action="${model.actionBase}/cancel" id="login-flow-cancel">
<input type="hidden" name="requesttoken" value="${model.user.csrfToken}">
<p><button type="submit" class="danger" id="cancel-access">${t("loginFlow:grant.cancel")}</button></p>
</form>`,
  });
}

export function loginFlowDonePage(translator: Translator, model: { clientName: string; user: PageUser }): SafeHtml {
  const { t } = translator;
  return layout({
    translator,
    title: t("loginFlow:done.title"),
    user: model.user,
    body: html`<h1>${t("loginFlow:done.title")}</h1>
<p id="login-flow-done">${translatedHtml(translator, "loginFlow:done.text", { name: html`<strong>${model.clientName}</strong>` })}</p>`,
  });
}

export function loginFlowCancelledPage(translator: Translator, user: PageUser): SafeHtml {
  const { t } = translator;
  return layout({
    translator,
    title: t("loginFlow:cancelled.title"),
    user,
    body: html`<h1>${t("loginFlow:cancelled.title")}</h1>
<p id="login-flow-cancelled">${t("loginFlow:cancelled.text")}</p>`,
  });
}

export function loginFlowInvalidPage(translator: Translator, user?: PageUser): SafeHtml {
  const { t } = translator;
  return layout({
    translator,
    title: t("loginFlow:invalid.title"),
    user,
    body: html`<h1>${t("loginFlow:invalid.title")}</h1>
<p id="login-flow-invalid">${t("loginFlow:invalid.text")}</p>`,
  });
}
