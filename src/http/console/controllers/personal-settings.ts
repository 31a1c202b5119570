import type { FastifyInstance } from "fastify";
import { replacePassword } from "../../../accounts/password-change.js";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "../../../i18n/index.js";
import { html } from "../../html.js";
import { userTranslator } from "../../i18n.js";
import { guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { formField, sendSettingsPage } from "../page.js";
import { throttledPasswordCheck } from "../password-confirmation.js";
import { SETTINGS_PAGES } from "../settings-sections.js";

const PATH = SETTINGS_PAGES.personal.path;

let timeZoneList: readonly string[] | undefined;

/**
 * Every time zone this Node knows, for the selector (the preference's check is isTimeZone); listed
 * when the page is first rendered, as the list loads ICU's zone data.
 */
function timeZones(): readonly string[] {
  timeZoneList ??= Intl.supportedValuesOf("timeZone");
  return timeZoneList;
}

/**
 * The personal page's own account sections: profile (full name, email), password, and language
 * and time zone. Each form goes through the same domain function `occ` uses; a refused value (an
 * AccountError) is shown in the form's section by account-errors.ts.
 */
export async function personalSettingsRoutes(app: FastifyInstance): Promise<void> {
  const { users, sessions, preferences, settings, passwordConfirmations, deviceCredentials, log } = app.services;

  app.settingsSections.push(
    {
      id: "profile",
      page: "personal",
      order: 0,
      render: async ({ principal, csrfToken, flash, t }) => {
        const { user } = principal;
        const editable = settings.get("allow_user_to_change_display_name");
        return html`<h2>${t("settings:profile.title")}</h2>
${flash ?? ""}
<table><tr><th>${t("settings:profile.username")}</th><td id="profile-uid">${user.uid}</td></tr>
<tr><th>${t("settings:profile.fullName")}</th><td id="profile-display-name">${user.displayName}</td></tr>
<tr><th>${t("settings:profile.email")}</th><td id="profile-email">${user.email ?? ""}</td></tr></table>
${
  editable
    ? html`<form method="post" action="${PATH}/profile" id="profile-form">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="profile-display-name-input">${t("settings:profile.fullName")}</label>
<input type="text" id="profile-display-name-input" name="display_name" maxlength="255" required value="${user.displayName}">
<label for="profile-email-input">${t("settings:profile.email")}</label>
<input type="email" id="profile-email-input" name="email" maxlength="255" value="${user.email ?? ""}">
<p><button type="submit">${t("settings:common.save")}</button></p>
</form>`
    : html`<p class="muted" id="profile-locked">${t("settings:profile.locked")}</p>`
}`;
      },
    },
    {
      id: "password",
      page: "personal",
      order: 10,
      render: async ({ csrfToken, flash, t }) => html`<h2>${t("settings:password.title")}</h2>
${flash ?? ""}
<form method="post" action="${PATH}/password" id="password-form">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="password-current">${t("settings:password.current")}</label>
<input type="password" id="password-current" name="current_password" autocomplete="current-password" required>
<label for="password-new">${t("settings:password.new")}</label>
<input type="password" id="password-new" name="new_password" autocomplete="new-password" minlength="8" required>
<p class="muted">${t("settings:password.othersEnded")}</p>
<label class="check" for="password-sign-out-devices"><input type="checkbox" id="password-sign-out-devices" name="sign_out_devices" value="1" checked> ${t("settings:password.signOutDevices")}</label>
<p><button type="submit">${t("settings:password.change")}</button></p>
</form>`,
    },
    {
      id: "locale",
      page: "personal",
      order: 20,
      render: async ({ principal, csrfToken, flash, t }) => {
        const { language, timeZone } = principal.user;
        const option = (value: string, label: string, selected: boolean) =>
          html`<option value="${value}"${selected ? html` selected` : ""}>${label}</option>`;
        return html`<h2>${t("settings:locale.title")}</h2>
${flash ?? ""}
<form method="post" action="${PATH}/locale" id="locale-form">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="locale-language">${t("settings:locale.language")}</label>
<select id="locale-language" name="language">
${option("", t("settings:locale.followBrowser"), language === null)}
${SUPPORTED_LANGUAGES.map((code) => option(code, LANGUAGE_NAMES[code], language === code))}
</select>
<label for="locale-timezone">${t("settings:locale.timeZone")}</label>
<select id="locale-timezone" name="timezone">
${option("", t("settings:locale.serverTimeZone"), timeZone === null)}
${timeZones().map((zone) => option(zone, zone, timeZone === zone))}
</select>
<p><button type="submit">${t("settings:common.save")}</button></p>
</form>`;
      },
    },
  );

  await app.register(guarded(SESSION_FORM, personalForms));

  async function personalForms(forms: FastifyInstance): Promise<void> {
    forms.post(
      `${PATH}/profile`,
      { config: { accountRefusal: { page: "personal", sectionId: "profile" } } },
      async (request, reply) => {
        const { principal } = request;
        const { t } = userTranslator(request, principal);
        // ownCloud's allow_user_to_change_display_name covers the full name and the email alike.
        if (!settings.get("allow_user_to_change_display_name")) {
          const message = html`<p class="error">${t("settings:profile.locked")}</p>`;
          return sendSettingsPage(request, reply, principal, "personal", { sectionId: "profile", message }, 403);
        }
        await users.updateProfile(principal.user.uid, {
          displayName: (formField(request, "display_name") ?? "").trim(),
          email: (formField(request, "email") ?? "").trim(),
        });
        log.info({ event: "profile_changed", uid: principal.user.uid }, "user changed their profile");
        return reply.redirect(`${PATH}#profile`, 303);
      },
    );

    // The current password is checked through the login throttle (same buckets as the login form),
    // so this form is no way around it for someone who found an open session. With
    // `sign_out_devices` (ticked by default, docs/decisions.md), the change also ends every app
    // password and OAuth grant of the user (services.ts deviceCredentials).
    forms.post(
      `${PATH}/password`,
      { config: { accountRefusal: { page: "personal", sectionId: "password", elementId: "password-error" } } },
      async (request, reply) => {
        const { principal } = request;
        const { t } = userTranslator(request, principal);
        const { uid } = principal.user;
        const answer = (status: number, message: ReturnType<typeof html>) =>
          sendSettingsPage(request, reply, principal, "personal", { sectionId: "password", message }, status);
        const current = formField(request, "current_password") ?? "";
        const next = formField(request, "new_password") ?? "";
        const gate = await throttledPasswordCheck(request, uid, current);
        if (gate.refused) {
          reply.header("retry-after", String(gate.retryAfterSeconds));
          return answer(429, html`<p class="error">${t("settings:password.throttled")}</p>`);
        }
        if (!gate.value) {
          request.log.warn({ event: "password_change_refused", uid, ip: request.ip }, "password change: wrong current password");
          return answer(403, html`<p class="error" id="password-error">${t("settings:password.wrongCurrent")}</p>`);
        }
        const everywhere = formField(request, "sign_out_devices") !== undefined;
        const ended = await replacePassword(users, sessions, uid, next, {
          keepSessionToken: principal.session?.token,
          endDeviceCredentials: everywhere ? deviceCredentials : undefined,
        });
        // The current password was just proven: this session's confirmation is fresh.
        if (principal.session) await passwordConfirmations.record(principal.session);
        log.info(
          { event: "password_changed", uid, ip: request.ip, signedOutDevices: everywhere, ended },
          "user changed their password",
        );
        const changed = t(everywhere ? "settings:password.changedEverywhere" : "settings:password.changed");
        return answer(200, html`<p class="notice" id="password-changed">${changed}</p>`);
      },
    );

    // One validation: preferences.set checks the language and the time zone, for occ and this form.
    forms.post(
      `${PATH}/locale`,
      { config: { accountRefusal: { page: "personal", sectionId: "locale" } } },
      async (request, reply) => {
        const { uid } = request.principal.user;
        for (const [key, field] of [
          ["lang", "language"],
          ["timezone", "timezone"],
        ] as const) {
          const value = (formField(request, field) ?? "").trim();
          if (value === "") await preferences.delete(uid, "core", key);
          else await preferences.set(uid, "core", key, value);
        }
        return reply.redirect(`${PATH}#locale`, 303);
      },
    );
  }
}
