import type { Translator } from "../../i18n/index.js";
import type { ProviderId } from "../../second-factor/providers.js";
import { html, type SafeHtml } from "../html.js";
import { type HeaderUser, layout } from "./layout.js";
import { passkeyScripts } from "./passkey-scripts.js";

/** The hidden fields a form carries (the request token, the page to go back to). */
function hidden(fields: ReadonlyArray<readonly [string, string | undefined]>): SafeHtml[] {
  return fields.flatMap(([name, value]) =>
    value === undefined ? [] : [html`<input type="hidden" name="${name}" value="${value}">`],
  );
}

export interface TotpEnrolmentModel {
  /** The QR code of the key URI (http/qr-code.ts). */
  qrCode: SafeHtml;
  /** The Base32 secret, for typing in by hand. */
  secret: string;
  action: string;
  fields: ReadonlyArray<readonly [string, string | undefined]>;
  error?: string | undefined;
  /** More fields inside the form (the password confirmation when it is due). */
  extra?: SafeHtml | undefined;
}

/** The QR code, the key as text and the code that enables it: personal settings and the enforced setup alike. */
export function totpEnrolment(translator: Translator, model: TotpEnrolmentModel): SafeHtml {
  const { t } = translator;
  const error = model.error;
  return html`<p id="totp-scan">${t("secondFactor:totp.scan")}</p>
<div class="qr-code" role="img" aria-label="${t("secondFactor:totp.qrLabel")}" id="totp-qr">${model.qrCode}</div>
<p>${t("secondFactor:totp.secret")}: <code class="secret" id="totp-secret">${model.secret}</code></p>
${error === undefined ? "" : html`<p class="error" id="totp-error" role="alert">${error}</p>`}
<form method="post" action="${model.action}" id="totp-enable-form">
${hidden(model.fields)}
<label for="totp-enable-code">${t("secondFactor:totp.codeLabel")}</label>
<input type="text" id="totp-enable-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7" required${error === undefined ? "" : html` aria-invalid="true" aria-describedby="totp-error"`}>
${model.extra ?? ""}
<div class="actions"><button type="submit" id="totp-enable-submit">${t("secondFactor:totp.enable")}</button></div>
</form>`;
}

/** A new set of recovery codes, shown once, with a download of them as a text file. */
export function recoveryCodesList(translator: Translator, uid: string, codes: readonly string[]): SafeHtml {
  const { t } = translator;
  const file = `${t("secondFactor:settings.recovery.fileIntro", { uid })}\n\n${codes.join("\n")}\n`;
  // A data: URL with `download`: the codes leave the page without being stored on the server again.
  const href = `data:text/plain;charset=utf-8,${encodeURIComponent(file)}`;
  return html`<div class="notice" id="new-recovery-codes"><p>${t("secondFactor:settings.recovery.generated")}</p>
<ol class="recovery-codes" id="recovery-code-list">${codes.map((code) => html`<li><code>${code}</code></li>`)}</ol>
<p><a href="${href}" download="keystream-recovery-codes.txt" id="recovery-codes-download">${t("secondFactor:settings.recovery.download")}</a></p></div>`;
}

export interface ChallengePageModel {
  csrfToken: string;
  redirectUrl: string | undefined;
  offered: readonly ProviderId[];
  error?: string | undefined;
}

/** The form that ends a half-finished login (the session's own request token). */
function cancelForm(translator: Translator, csrfToken: string): SafeHtml {
  return html`<form method="post" action="/index.php/logout" id="second-factor-cancel">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<button type="submit" class="secondary">${translator.t("secondFactor:challenge.cancel")}</button></form>`;
}

/** After the password: one form per factor the user has (TOTP, a recovery code). */
export function challengePage(translator: Translator, model: ChallengePageModel): SafeHtml {
  const { t } = translator;
  const title = t("secondFactor:challenge.title");
  const fields = [
    ["requesttoken", model.csrfToken],
    ["redirect_url", model.redirectUrl],
  ] as const;
  const error = model.error;
  const describedBy = error === undefined ? "" : html` aria-describedby="challenge-error"`;
  const forms = model.offered.map((provider) => {
    if (provider === "totp") {
      return html`<h2>${t("secondFactor:provider.totp")}</h2>
<form method="post" action="/index.php/login/challenge" id="challenge-totp">
${hidden([...fields, ["provider", "totp"]])}
<label for="challenge-totp-code">${t("secondFactor:challenge.totpLabel")}</label>
<input type="text" id="challenge-totp-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7" required autofocus${describedBy}>
<div class="actions"><button type="submit" id="challenge-totp-submit">${t("secondFactor:challenge.submit")}</button></div>
</form>`;
    }
    if (provider === "backup_codes") {
      return html`<h2>${t("secondFactor:provider.backup_codes")}</h2>
<form method="post" action="/index.php/login/challenge" id="challenge-backup-codes">
${hidden([...fields, ["provider", "backup_codes"]])}
<label for="challenge-recovery-code">${t("secondFactor:challenge.recoveryLabel")}</label>
<input type="text" id="challenge-recovery-code" name="code" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="32" required aria-describedby="challenge-recovery-hint">
<p class="muted" id="challenge-recovery-hint">${t("secondFactor:challenge.recoveryHint")}</p>
<div class="actions"><button type="submit" id="challenge-backup-codes-submit">${t("secondFactor:challenge.submit")}</button></div>
</form>`;
    }
    if (provider === "webauthn") {
      // The assertion is the form's `code`, filled in by the passkey script (http/passkey-scripts.ts).
      return html`<h2>${t("secondFactor:provider.webauthn")}</h2>
<form method="post" action="/index.php/login/challenge" id="challenge-webauthn">
${hidden([...fields, ["provider", "webauthn"], ["code", ""]])}
<p class="muted" id="challenge-webauthn-hint">${t("secondFactor:passkey.challengeHint")}</p>
<div class="actions"><button type="button" id="challenge-webauthn-start" data-passkey-challenge data-options="/index.php/login/challenge/passkey-options${model.redirectUrl === undefined ? "" : `?redirect_url=${encodeURIComponent(model.redirectUrl)}`}" data-status="challenge-webauthn-status" data-working="${t("secondFactor:passkey.working")}" data-failed="${t("secondFactor:passkey.signInFailed")}" data-unsupported="${t("secondFactor:passkey.unsupported")}" aria-describedby="challenge-webauthn-hint">${t("secondFactor:passkey.challengeUse")}</button></div>
<p id="challenge-webauthn-status" role="status" aria-live="polite"></p>
<noscript><p class="muted">${t("secondFactor:passkey.needsScript")}</p></noscript>
</form>`;
    }
    return html``;
  });
  return layout({
    translator,
    title,
    narrow: true,
    body: html`<h1>${title}</h1>
<p>${t("secondFactor:challenge.intro")}</p>
${error === undefined ? "" : html`<p class="error" id="challenge-error" role="alert">${error}</p>`}
${model.offered.length === 0 ? html`<p class="error" id="challenge-none">${t("secondFactor:challenge.none")}</p>` : forms}
${cancelForm(translator, model.csrfToken)}${model.offered.includes("webauthn") ? passkeyScripts() : ""}`,
  });
}

/** Enforced second factors, the user has none: the TOTP enrolment right after the password. */
export function setupPage(translator: Translator, csrfToken: string, enrolment: SafeHtml): SafeHtml {
  const { t } = translator;
  const title = t("secondFactor:setup.title");
  return layout({
    translator,
    title,
    narrow: true,
    body: html`<h1>${title}</h1>
<p id="setup-intro">${t("secondFactor:setup.intro")}</p>
${enrolment}
${cancelForm(translator, csrfToken)}`,
  });
}

/** After the enforced setup: the first recovery codes, then on to where the login was going. */
export function setupDonePage(translator: Translator, user: HeaderUser, codes: SafeHtml, next: string): SafeHtml {
  const { t } = translator;
  const title = t("secondFactor:setup.doneTitle");
  return layout({
    translator,
    title,
    user,
    narrow: true,
    body: html`<h1>${title}</h1>
<p class="notice" id="setup-done">${t("secondFactor:setup.done")}</p>
${codes}
<p><a href="${next}" id="setup-continue">${t("secondFactor:setup.continue")}</a></p>`,
  });
}
