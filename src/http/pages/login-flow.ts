import type { Translator } from "../../i18n/index.js";
import type { PendingFlow } from "../../login-flow/ports.js";
import { html, type SafeHtml } from "../html.js";
import { layout } from "./layout.js";
import { type PageUser, userLabel } from "./oauth.js";
import { confirmPasswordField } from "./password-confirmation.js";
import { translatedHtml } from "./translated-html.js";

/**
 * Login Flow v2's browser pages (nextcloud/server core/Controller/ClientFlowLoginV2Controller.php);
 * texts in the `loginFlow` catalogue.
 */

/**
 * The application's name is the flow starter's own claim (login-flow/flow.ts clientNameOf): every
 * page presents it as what the application calls itself, never as Keystream's statement.
 */

/** The login page's note while a flow waits for the visitor to log in. */
export function loginFlowLoginNote(translator: Translator, clientName: string): SafeHtml {
  return html`${translator.t("loginFlow:loginNote", { name: clientName })}`;
}

/**
 * The grant page: the name the application reported, marked as its own, with what Keystream saw
 * itself (the address the flow was started from, and when), the account, and a warning against a
 * link someone else sent (whoever started the flow receives the app password: the one way this
 * flow is abused). `confirmPassword`: the session's password confirmation is too old, so the grant
 * form asks for it.
 */
export function loginFlowGrantPage(
  translator: Translator,
  model: { flow: PendingFlow; user: PageUser; actionBase: string; now: number; confirmPassword: boolean },
): SafeHtml {
  const { t, dates } = translator;
  const { flow } = model;
  return layout({
    translator,
    title: t("loginFlow:grant.title"),
    user: model.user,
    body: html`<h1>${t("loginFlow:grant.title")}</h1>
<div id="login-flow-client"><p>${t("loginFlow:grant.request")}</p>
<dl class="facts">
<dt>${t("loginFlow:grant.reportedName")}</dt><dd id="login-flow-name"><strong>${flow.clientName}</strong></dd>
${flow.startedFrom === null ? "" : html`<dt>${t("loginFlow:grant.startedFrom")}</dt><dd id="login-flow-address">${flow.startedFrom}</dd>`}
<dt>${t("loginFlow:grant.startedAt")}</dt><dd id="login-flow-started"><time datetime="${new Date(flow.startedAt * 1000).toISOString()}">${dates.dateTime(flow.startedAt)}</time> (${dates.relative(flow.startedAt, model.now)})</dd>
</dl>
<p class="muted" id="login-flow-claim">${t("loginFlow:grant.claim")}</p></div>
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
