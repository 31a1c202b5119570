import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { AccountError } from "../../accounts/errors.js";
import { replacePassword } from "../../accounts/password-change.js";
import type { Translator } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";
import { userTranslator } from "../i18n.js";
import { ADMIN_FORM, guarded } from "../plugins/route-guards.js";
import { userFactorsCell } from "./second-factor-settings.js";
import { formField, sendSettingsPage } from "./settings.js";

const USERS_PATH = "/index.php/settings/users";
const SECTION_ID = "users";

function uidParam(request: FastifyRequest): string {
  return (request.params as { uid: string }).uid;
}

/**
 * The admin page's users section: create, disable, enable, delete a user and reset a password,
 * through the same UserDirectory calls `./occ user:*` makes.
 */
export async function adminUserRoutes(app: FastifyInstance): Promise<void> {
  const { users, sessions, log } = app.services;

  app.settingsSections.push({
    id: SECTION_ID,
    page: "users",
    order: 0,
    render: async ({ principal, csrfToken, flash, formValues = {}, t }) => {
      const all = await users.list();
      const factors = await app.services.secondFactors.enabledByUser();
      const label = {
        uid: t("settings:profile.username"),
        name: t("settings:profile.fullName"),
        email: t("settings:profile.email"),
        state: t("settings:users.state"),
        role: t("settings:users.role"),
        factors: t("secondFactor:admin.column"),
      };
      const action = (uid: string, verb: string, label: string, danger = false) =>
        html`<form method="post" action="${USERS_PATH}/${encodeURIComponent(uid)}/${verb}"><input type="hidden" name="requesttoken" value="${csrfToken}"><button type="submit"${danger ? html` class="danger"` : ""}>${label}</button></form>`;
      return html`<h2>${t("settings:users.title")}</h2>
${flash ?? ""}
<table class="responsive" id="user-list"><thead><tr><th scope="col">${label.uid}</th><th scope="col">${label.name}</th><th scope="col">${label.email}</th><th scope="col">${label.state}</th><th scope="col">${label.role}</th><th scope="col">${label.factors}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${all.map((u) => {
  // An administrator does not disable or delete themself here: that would lock the page's user out.
  const self = u.uid === principal.user.uid;
  // data-label: the column's name, shown beside each cell when the table becomes cards on a phone.
  return html`<tr><td data-label="${label.uid}">${u.uid}</td><td data-label="${label.name}">${u.displayName}</td><td data-label="${label.email}" class="wrap-anywhere">${u.email ?? ""}</td><td data-label="${label.state}">${u.enabled ? t("settings:users.enabled") : t("settings:users.disabled")}</td><td data-label="${label.role}">${u.isAdmin ? t("settings:users.admin") : "–"}</td><td data-label="${label.factors}" id="factors-${u.uid}">${userFactorsCell(t, csrfToken, u.uid, factors.get(u.uid))}</td><td class="actions-cell">
${self ? "" : u.enabled ? action(u.uid, "disable", t("settings:users.disable")) : action(u.uid, "enable", t("settings:users.enable"))}
${self ? "" : action(u.uid, "delete", t("settings:users.delete"), true)}
<form method="post" action="${USERS_PATH}/${encodeURIComponent(u.uid)}/password"><input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="reset-${u.uid}">${t("settings:users.newPasswordFor", { uid: u.uid })}</label>
<input type="password" id="reset-${u.uid}" name="password" autocomplete="new-password" minlength="8" required>
<button type="submit">${t("settings:users.resetPassword")}</button></form></td></tr>`;
})}</tbody></table>
<h3>${t("settings:users.create")}</h3>
<form method="post" action="${USERS_PATH}" id="create-user">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="new-user-uid">${t("settings:profile.username")}</label><input type="text" id="new-user-uid" name="uid" maxlength="64" required value="${formValues.uid ?? ""}">
<label for="new-user-display-name">${t("settings:profile.fullName")}</label><input type="text" id="new-user-display-name" name="display_name" maxlength="255" value="${formValues.display_name ?? ""}">
<label for="new-user-email">${t("settings:profile.email")}</label><input type="email" id="new-user-email" name="email" maxlength="255" value="${formValues.email ?? ""}">
<label for="new-user-password">${t("settings:users.password")}</label><input type="password" id="new-user-password" name="password" autocomplete="new-password" minlength="8" required>
<label><input type="checkbox" name="is_admin" value="1"${formValues.is_admin !== undefined ? html` checked` : ""}> ${t("settings:users.admin")}</label>
<p><button type="submit">${t("settings:users.createButton")}</button></p>
</form>`;
    },
  });

  /**
   * Runs an administrator's change and shows its outcome in the users section; a refused change
   * (an AccountError) is shown there by account-errors.ts, a refused new user with its form refilled.
   */
  const administer = (
    forms: FastifyInstance,
    path: string,
    change: (request: FastifyRequest, actor: string, principal: Principal) => Promise<(t: Translator["t"]) => SafeHtml>,
  ) => {
    const refill = path === USERS_PATH ? ["uid", "display_name", "email", "is_admin"] : undefined;
    const accountRefusal = { page: "users", sectionId: SECTION_ID, elementId: "users-error", refill } as const;
    forms.post(path, { config: { accountRefusal } }, async (request, reply) => {
      const { principal } = request;
      const { t } = userTranslator(request, principal);
      const message = (await change(request, principal.user.uid, principal))(t);
      return sendSettingsPage(request, reply, principal, "users", {
        sectionId: SECTION_ID,
        message: html`<p class="notice" id="users-notice">${message}</p>`,
      });
    });
  };

  const notSelf = (uid: string, actor: string) => {
    if (uid === actor) throw new AccountError("invalid_uid", "ownAccount");
  };

  await app.register(
    guarded(ADMIN_FORM, (forms) => {
      administer(forms, USERS_PATH, async (request, actor) => {
        const user = await users.create({
          uid: (formField(request, "uid") ?? "").trim(),
          password: formField(request, "password") ?? "",
          displayName: (formField(request, "display_name") ?? "").trim() || undefined,
          email: (formField(request, "email") ?? "").trim() || undefined,
          isAdmin: formField(request, "is_admin") !== undefined,
        });
        log.info({ event: "user_created", uid: user.uid, by: actor }, "user created on the admin page");
        return (t) => html`${t("settings:users.created", { uid: user.uid })}`;
      });

      for (const enabled of [true, false]) {
        administer(forms, `${USERS_PATH}/:uid/${enabled ? "enable" : "disable"}`, async (request, actor) => {
          const uid = uidParam(request);
          notSelf(uid, actor);
          await users.setEnabled(uid, enabled);
          log.info({ event: enabled ? "user_enabled" : "user_disabled", uid, by: actor }, "user state changed on the admin page");
          return (t) => html`${t(enabled ? "settings:users.wasEnabled" : "settings:users.wasDisabled", { uid })}`;
        });
      }

      administer(forms, `${USERS_PATH}/:uid/delete`, async (request, actor) => {
        const uid = uidParam(request);
        notSelf(uid, actor);
        await users.delete(uid);
        log.info({ event: "user_deleted", uid, by: actor }, "user deleted on the admin page");
        return (t) => html`${t("settings:users.deleted", { uid })}`;
      });

      administer(forms, `${USERS_PATH}/:uid/password`, async (request, actor, principal) => {
        const uid = uidParam(request);
        // The administrator's own browser session stays when they reset their own password.
        await replacePassword(users, sessions, uid, formField(request, "password") ?? "", {
          keepSessionToken: uid === actor ? principal.session?.token : undefined,
        });
        log.info({ event: "password_reset", uid, by: actor }, "password reset on the admin page");
        return (t) => html`${t("settings:users.passwordReset", { uid })}`;
      });
    }),
  );
}
