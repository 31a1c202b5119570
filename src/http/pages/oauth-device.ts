import type { Translator } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";
import { layout } from "./layout.js";
import { grantedAccess, type PageUser, userLabel } from "./oauth.js";
import { translatedHtml } from "./translated-html.js";

/**
 * The device authorization grant's verification pages (RFC 8628 §3.3): the user code form, the
 * confirmation naming the client and what it gets (the consent page's scope lines), and the
 * outcome. Texts in the `device` catalogue; the consent page's shared lines in `pages`.
 */

/** The login page's note when the login returns to the verification page. */
export function deviceLoginNote(translator: Translator): SafeHtml {
  return html`${translator.t("device:loginNote")}`;
}

/** Why the entered code was not taken, and the sentence that says so. */
const PROBLEMS = {
  malformed: "device:entry.malformed",
  unknown: "device:entry.unknown",
  throttled: "device:entry.throttled",
  /** The client's allowed groups do not admit the user (docs/oauth2.md). */
  notAvailable: "groups:notAvailableHere",
} as const;
export type UserCodeProblem = keyof typeof PROBLEMS;

/**
 * The user code form. `userCode` prefills it (from `verification_uri_complete`, RFC 8628 §3.3.1,
 * which the person still confirms by submitting the form).
 */
export function userCodePage(
  translator: Translator,
  model: { user: PageUser; action: string; userCode: string; problem?: UserCodeProblem | undefined },
): SafeHtml {
  const { t } = translator;
  const problem =
    model.problem === undefined
      ? ""
      : html`<p class="error" id="device-error" role="alert" data-problem="${model.problem}">${t(PROBLEMS[model.problem])}</p>`;
  return layout({
    translator,
    title: t("device:entry.title"),
    user: model.user,
    narrow: true,
    body: html`<h1>${t("device:entry.title")}</h1>
<p>${t("device:entry.text")}</p>
${problem}
<form method="post" action="${model.action}" id="device-code-form">
<input type="hidden" name="requesttoken" value="${model.user.csrfToken}">
<label for="user_code">${t("device:entry.label")}</label>
<input type="text" id="user_code" name="user_code" value="${model.userCode}" autocomplete="off" autocapitalize="characters" spellcheck="false" aria-describedby="user-code-hint"${model.problem === undefined ? "" : html` aria-invalid="true"`} required autofocus>
<p class="muted" id="user-code-hint">${t("device:entry.hint")}</p>
<div class="actions"><button type="submit" id="device-continue">${t("device:entry.continue")}</button></div>
</form>`,
  });
}

/**
 * The confirmation (RFC 8628 §5.4: the client named, the code repeated so the person can compare
 * it with the device's, a warning against codes someone else sent): Approve and Deny are two submit
 * buttons of one form, which carries the user code again, so both pass the same checks.
 */
export function deviceConsentPage(
  translator: Translator,
  model: { user: PageUser; action: string; clientName: string; userCode: string; scope: string },
): SafeHtml {
  const { t } = translator;
  return layout({
    translator,
    title: t("device:confirm.title"),
    user: model.user,
    narrow: true,
    body: html`<h1>${t("device:confirm.title")}</h1>
<p><strong>${t("device:confirm.question", { name: model.clientName })}</strong></p>
<p id="device-user-code">${translatedHtml(translator, "device:confirm.code", { code: html`<strong class="user-code">${model.userCode}</strong>` })}</p>
<p id="oauth-current-user">${translatedHtml(translator, "pages:consent.loggedInAs", { user: userLabel(model.user) })}</p>
<p>${t("pages:consent.gets")}</p>
<ul class="scopes" id="oauth-scopes">${grantedAccess(t, model.scope).map((line) => html`<li>${line}</li>`)}</ul>
<p>${t("pages:consent.revocable")}</p>
<p class="error" role="note">${t("device:confirm.warning")}</p>
<form method="post" action="${model.action}" id="device-consent">
<input type="hidden" name="requesttoken" value="${model.user.csrfToken}">
<input type="hidden" name="user_code" value="${model.userCode}">
<div class="actions"><button type="submit" id="authorize" name="decision" value="approve">${t("pages:consent.allow")}</button>
<button type="submit" class="secondary" id="deny" name="decision" value="deny">${t("pages:consent.deny")}</button></div>
</form>`,
  });
}

/** The outcome: approved (return to the device) or denied. */
export function deviceDecisionPage(
  translator: Translator,
  model: { user: PageUser; clientName: string; approved: boolean },
): SafeHtml {
  const { t } = translator;
  const title = model.approved ? t("device:approved.title") : t("device:denied.title");
  const text = model.approved ? t("device:approved.text", { name: model.clientName }) : t("device:denied.text");
  return layout({
    translator,
    title,
    user: model.user,
    narrow: true,
    body: html`<h1>${title}</h1>
<p id="${model.approved ? "device-approved" : "device-denied"}">${text}</p>`,
  });
}
