import { PASSWORD_CONFIRMATION_WINDOW_SECONDS } from "../../accounts/password-confirmation.js";
import type { Translator } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";
import { type HeaderUser, layout } from "./layout.js";

/** The form field a password confirmation travels in, on the confirmation page and inside a form. */
export const CONFIRM_PASSWORD_FIELD = "confirm_password";

const WINDOW_MINUTES = PASSWORD_CONFIRMATION_WINDOW_SECONDS / 60;

/**
 * The password field a form that needs a recent confirmation carries when the session's is too
 * old (the same check then runs on submit, without a second page). `idPrefix` keeps the ids unique.
 */
export function confirmPasswordField(translator: Translator, idPrefix: string): SafeHtml {
  const { t } = translator;
  return html`<label for="${idPrefix}-confirm-password">${t("passwordConfirmation:password")}</label>
<input type="password" id="${idPrefix}-confirm-password" name="${CONFIRM_PASSWORD_FIELD}" autocomplete="current-password" required aria-describedby="${idPrefix}-confirm-password-hint">
<p class="muted" id="${idPrefix}-confirm-password-hint">${t("passwordConfirmation:fieldHint", { minutes: WINDOW_MINUTES })}</p>`;
}

/**
 * The confirmation step: asks for the password and posts it back to the action that asked, with
 * that action's own fields, so the action goes on once the password is right.
 */
export function passwordConfirmationPage(
  translator: Translator,
  model: {
    user: HeaderUser;
    /** The URL of the action waiting for the confirmation (the request's own). */
    action: string;
    /** The action's form fields, carried unchanged (the requesttoken and the password excluded). */
    carried: ReadonlyArray<readonly [string, string]>;
    error?: string | undefined;
  },
): SafeHtml {
  const { t } = translator;
  const title = t("passwordConfirmation:title");
  const error = model.error;
  return layout({
    translator,
    title,
    user: model.user,
    narrow: true,
    body: html`<h1>${title}</h1>
<p id="confirm-password-intro">${t("passwordConfirmation:intro", { minutes: WINDOW_MINUTES })}</p>
${error === undefined ? "" : html`<p class="error" id="confirm-password-error" role="alert">${error}</p>`}
<form method="post" action="${model.action}" id="confirm-password-form">
<input type="hidden" name="requesttoken" value="${model.user.csrfToken}">
${model.carried.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<label for="confirm-password">${t("passwordConfirmation:password")}</label>
<input type="password" id="confirm-password" name="${CONFIRM_PASSWORD_FIELD}" autocomplete="current-password" required aria-describedby="${error === undefined ? "confirm-password-intro" : "confirm-password-error"}"${error === undefined ? "" : html` aria-invalid="true"`}>
<p><button type="submit" id="confirm-password-submit">${t("passwordConfirmation:confirm")}</button></p>
</form>`,
  });
}
