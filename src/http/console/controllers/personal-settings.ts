import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { replacePassword } from "../../../accounts/password-change.js";
import { sendAccountRefusal } from "../../account-errors.js";
import { userTranslator } from "../../i18n.js";
import { guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { answerInSection, formField } from "../page.js";
import { throttledPasswordCheck } from "../password-confirmation.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { localeSection, passwordSection, profileSection } from "../views/personal-account.js";

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
 * account refusal) is shown in the form's section by account-errors.ts.
 */
export async function personalSettingsRoutes(app: FastifyInstance): Promise<void> {
  const { settings } = app.services;

  app.settingsSections.push(
    {
      id: "profile",
      page: "personal",
      order: 0,
      render: async ({ principal, csrfToken, flash, t }) => {
        const editable = settings.get("allow_user_to_change_display_name");
        return profileSection(t, { path: PATH, user: principal.user, csrfToken, flash, editable });
      },
    },
    {
      id: "password",
      page: "personal",
      order: 10,
      render: async ({ csrfToken, flash, t }) => passwordSection(t, { path: PATH, csrfToken, flash }),
    },
    {
      id: "locale",
      page: "personal",
      order: 20,
      render: async ({ principal, csrfToken, flash, t }) => {
        const { language, timeZone } = principal.user;
        return localeSection(t, { path: PATH, language, timeZone, timeZones: timeZones(), csrfToken, flash });
      },
    },
  );

  await app.register(
    guarded(SESSION_FORM, (forms) => {
      forms.post(`${PATH}/profile`, { config: { accountRefusal: { page: "personal", sectionId: "profile" } } }, changeProfile);
      // The current password is checked through the login throttle (same buckets as the login form),
      // so this form is no way around it for someone who found an open session. With
      // `sign_out_devices` (ticked by default, docs/decisions.md), the change also ends every app
      // password and OAuth grant of the user (services.ts deviceCredentials).
      const passwordRefusal = { page: "personal", sectionId: "password", elementId: "password-error" } as const;
      forms.post(`${PATH}/password`, { config: { accountRefusal: passwordRefusal } }, changePassword);
      // One validation: preferences.set checks the language and the time zone, for occ and this form.
      forms.post(`${PATH}/locale`, { config: { accountRefusal: { page: "personal", sectionId: "locale" } } }, changeLocale);
    }),
  );
}

async function changeProfile(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal } = request;
  const { users, settings, log } = request.server.services;
  const { t } = userTranslator(request, principal);
  // ownCloud's allow_user_to_change_display_name covers the full name and the email alike.
  if (!settings.get("allow_user_to_change_display_name")) {
    const text = t("settings:profile.locked");
    return answerInSection(request, reply, principal, { page: "personal", sectionId: "profile", ok: false, text, status: 403 });
  }
  const updated = await users.updateProfile(principal.user.uid, {
    displayName: (formField(request, "display_name") ?? "").trim(),
    email: (formField(request, "email") ?? "").trim(),
  });
  if (!updated.ok) return sendAccountRefusal(request, reply, updated);
  log.info({ event: "profile_changed", uid: principal.user.uid }, "user changed their profile");
  return reply.redirect(`${PATH}#profile`, 303);
}

async function changePassword(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal } = request;
  const { users, sessions, passwordConfirmations, deviceCredentials, log } = request.server.services;
  const { t } = userTranslator(request, principal);
  const { uid } = principal.user;
  const answer = (status: number, outcome: { ok: boolean; text: string; id?: string }) =>
    answerInSection(request, reply, principal, { page: "personal", sectionId: "password", ...outcome, status });
  const current = formField(request, "current_password") ?? "";
  const next = formField(request, "new_password") ?? "";
  const gate = await throttledPasswordCheck(request, uid, current);
  if (gate.refused) {
    reply.header("retry-after", String(gate.retryAfterSeconds));
    return answer(429, { ok: false, text: t("settings:password.throttled") });
  }
  if (!gate.value) {
    request.log.warn({ event: "password_change_refused", uid, ip: request.ip }, "password change: wrong current password");
    return answer(403, { ok: false, text: t("settings:password.wrongCurrent"), id: "password-error" });
  }
  const everywhere = formField(request, "sign_out_devices") !== undefined;
  const replaced = await replacePassword(users, sessions, uid, next, {
    keepSessionToken: principal.session?.token,
    endDeviceCredentials: everywhere ? deviceCredentials : undefined,
  });
  if (!replaced.ok) return sendAccountRefusal(request, reply, replaced);
  const ended = replaced.value;
  // The current password was just proven: this session's confirmation is fresh.
  if (principal.session) await passwordConfirmations.record(principal.session);
  log.info(
    { event: "password_changed", uid, ip: request.ip, signedOutDevices: everywhere, ended },
    "user changed their password",
  );
  const changed = t(everywhere ? "settings:password.changedEverywhere" : "settings:password.changed");
  return answer(200, { ok: true, text: changed, id: "password-changed" });
}

async function changeLocale(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { uid } = request.principal.user;
  const { preferences } = request.server.services;
  for (const [key, field] of [
    ["lang", "language"],
    ["timezone", "timezone"],
  ] as const) {
    const value = (formField(request, field) ?? "").trim();
    const changed = await (value === "" ? preferences.delete(uid, "core", key) : preferences.set(uid, "core", key, value));
    if (!changed.ok) return sendAccountRefusal(request, reply, changed);
  }
  return reply.redirect(`${PATH}#locale`, 303);
}
