import type { Translator } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";
import { layout } from "./layout.js";
import { passkeyScripts } from "./passkey-scripts.js";

export interface LoginPageModel {
  translator: Translator;
  csrfToken: string;
  redirectUrl: string | undefined;
  user: string;
  error?: string | undefined;
  /** Context from the page that sent the visitor here (e.g. which application asks for access). */
  notes: SafeHtml[];
}

export function loginPage(model: LoginPageModel): SafeHtml {
  const { t } = model.translator;
  return layout({
    translator: model.translator,
    title: t("pages:login.title"),
    narrow: true,
    body: html`<h1>${t("pages:login.title")}</h1>
${model.notes.map((note) => html`<p class="notice">${note}</p>`)}
${model.error ? html`<p class="error" id="login-error" role="alert">${model.error}</p>` : ""}
<form method="post" action="/index.php/login" id="login-form">
<input type="hidden" name="requesttoken" value="${model.csrfToken}">
${model.redirectUrl ? html`<input type="hidden" name="redirect_url" value="${model.redirectUrl}">` : ""}
<label for="user">${t("pages:login.username")}</label>
<input type="text" id="user" name="user" value="${model.user}" autocomplete="username webauthn" autocapitalize="none" spellcheck="false" required autofocus>
<label for="password">${t("pages:login.password")}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<div class="actions"><button type="submit" id="submit">${t("pages:login.submit")}</button></div>
</form>
${passkeySignIn(model)}`,
  });
}

/**
 * "Sign in with a passkey" (routes/passkey-login.ts), run by the passkey script; the user field
 * above also offers passkeys in the browser's autofill where it has conditional mediation.
 */
function passkeySignIn(model: LoginPageModel): SafeHtml {
  const { t } = model.translator;
  return html`<section class="passkey-sign-in" aria-labelledby="passkey-sign-in-button">
<p class="muted" id="passkey-sign-in-hint">${t("secondFactor:passkey.signInHint")}</p>
<div class="actions"><button type="button" class="secondary" id="passkey-sign-in-button" data-passkey-sign-in data-token="${model.csrfToken}"${model.redirectUrl ? html` data-redirect="${model.redirectUrl}"` : ""} data-options="/index.php/login/passkey/options" data-verify="/index.php/login/passkey" data-status="passkey-sign-in-status" data-working="${t("secondFactor:passkey.working")}" data-failed="${t("secondFactor:passkey.signInFailed")}" data-unsupported="${t("secondFactor:passkey.unsupported")}" aria-describedby="passkey-sign-in-hint">${t("secondFactor:passkey.signIn")}</button></div>
<p id="passkey-sign-in-status" role="status" aria-live="polite"></p>
<noscript><p class="muted">${t("secondFactor:passkey.needsScript")}</p></noscript>
</section>
${passkeyScripts()}`;
}
