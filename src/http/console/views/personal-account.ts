import type { User } from "../../../accounts/ports.js";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, type Translator } from "../../../i18n/index.js";
import { html, type SafeHtml } from "../../html.js";

type T = Translator["t"];

/** The personal page's profile: user name, full name and email, and the form that changes the last two. */
export function profileSection(
  t: T,
  model: { path: string; user: User; csrfToken: string; flash: SafeHtml | undefined; editable: boolean },
): SafeHtml {
  const { user, csrfToken } = model;
  return html`<h2>${t("settings:profile.title")}</h2>
${model.flash ?? ""}
<table><tr><th>${t("settings:profile.username")}</th><td id="profile-uid">${user.uid}</td></tr>
<tr><th>${t("settings:profile.fullName")}</th><td id="profile-display-name">${user.displayName}</td></tr>
<tr><th>${t("settings:profile.email")}</th><td id="profile-email">${user.email ?? ""}</td></tr></table>
${
  model.editable
    ? html`<form method="post" action="${model.path}/profile" id="profile-form">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="profile-display-name-input">${t("settings:profile.fullName")}</label>
<input type="text" id="profile-display-name-input" name="display_name" maxlength="255" required value="${user.displayName}">
<label for="profile-email-input">${t("settings:profile.email")}</label>
<input type="email" id="profile-email-input" name="email" maxlength="255" value="${user.email ?? ""}">
<p><button type="submit">${t("settings:common.save")}</button></p>
</form>`
    : html`<p class="muted" id="profile-locked">${t("settings:profile.locked")}</p>`
}`;
}

/** The personal page's password change form. */
export function passwordSection(t: T, model: { path: string; csrfToken: string; flash: SafeHtml | undefined }): SafeHtml {
  return html`<h2>${t("settings:password.title")}</h2>
${model.flash ?? ""}
<form method="post" action="${model.path}/password" id="password-form">
<input type="hidden" name="requesttoken" value="${model.csrfToken}">
<label for="password-current">${t("settings:password.current")}</label>
<input type="password" id="password-current" name="current_password" autocomplete="current-password" required>
<label for="password-new">${t("settings:password.new")}</label>
<input type="password" id="password-new" name="new_password" autocomplete="new-password" minlength="8" required>
<p class="muted">${t("settings:password.othersEnded")}</p>
<label class="check" for="password-sign-out-devices"><input type="checkbox" id="password-sign-out-devices" name="sign_out_devices" value="1" checked> ${t("settings:password.signOutDevices")}</label>
<p><button type="submit">${t("settings:password.change")}</button></p>
</form>`;
}

/** The personal page's language and time zone (null: follow the browser, the server's zone). */
export function localeSection(
  t: T,
  model: {
    path: string;
    language: string | null;
    timeZone: string | null;
    timeZones: readonly string[];
    csrfToken: string;
    flash: SafeHtml | undefined;
  },
): SafeHtml {
  const { language, timeZone } = model;
  const option = (value: string, label: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html` selected` : ""}>${label}</option>`;
  return html`<h2>${t("settings:locale.title")}</h2>
${model.flash ?? ""}
<form method="post" action="${model.path}/locale" id="locale-form">
<input type="hidden" name="requesttoken" value="${model.csrfToken}">
<label for="locale-language">${t("settings:locale.language")}</label>
<select id="locale-language" name="language">
${option("", t("settings:locale.followBrowser"), language === null)}
${SUPPORTED_LANGUAGES.map((code) => option(code, LANGUAGE_NAMES[code], language === code))}
</select>
<label for="locale-timezone">${t("settings:locale.timeZone")}</label>
<select id="locale-timezone" name="timezone">
${option("", t("settings:locale.serverTimeZone"), timeZone === null)}
${model.timeZones.map((zone) => option(zone, zone, timeZone === zone))}
</select>
<p><button type="submit">${t("settings:common.save")}</button></p>
</form>`;
}
