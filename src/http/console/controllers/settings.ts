import type { FastifyInstance } from "fastify";
import { sendAccountRefusal } from "../../account-errors.js";
import { userTranslator } from "../../i18n.js";
import { ADMIN_PAGE, CONFIRMED_SESSION_FORM, guarded, SESSION_FORM, SESSION_PAGE } from "../../plugins/route-guards.js";
import { copyScriptRoute } from "../../settings-copy-script.js";
import { ADMIN_AREAS, answerInSection, formField, sendSettingsPage } from "../page.js";
import { passwordConfirmationNeeded } from "../password-confirmation.js";
import { redirectWithFlash } from "../settings-flash.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { appPasswordsSection, newAppPasswordNotice } from "../views/app-passwords.js";

const ADMIN_HOME = "/index.php/settings/admin";

/** The personal page and the console's areas, each made of the sections registered on it. */
export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  copyScriptRoute(app);

  await app.register(
    guarded(SESSION_PAGE, (pages) => {
      pages.get(SETTINGS_PAGES.personal.path, async (request, reply) =>
        sendSettingsPage(request, reply, request.principal, "personal"),
      );
    }),
  );

  await app.register(
    guarded(ADMIN_PAGE, (pages) => {
      pages.get(ADMIN_HOME, async (_request, reply) => reply.redirect(SETTINGS_PAGES.users.path, 303));
      for (const area of ADMIN_AREAS) {
        pages.get(SETTINGS_PAGES[area].path, async (request, reply) => sendSettingsPage(request, reply, request.principal, area));
      }
    }),
  );

  await appPasswordRoutes(app);
}

/** The personal page's app passwords: the section, creating one, revoking one. */
async function appPasswordRoutes(app: FastifyInstance): Promise<void> {
  app.settingsSections.push({
    id: "app-passwords",
    page: "personal",
    order: 50,
    render: async ({ request, principal, csrfToken, flash, translator }) => {
      const appPasswords = await app.services.appPasswords.list(principal.user.uid);
      // Creating one needs a recent password confirmation (the group's guard); ask in the form itself.
      const confirm = await passwordConfirmationNeeded(request, principal);
      return appPasswordsSection(translator, { appPasswords, csrfToken, flash, confirm });
    },
  });

  await app.register(
    guarded(CONFIRMED_SESSION_FORM, (forms) => {
      // A refused name is the user's to read (account-errors.ts); anything else (the database away) is not.
      const accountRefusal = { page: "personal", sectionId: "app-passwords" } as const;
      forms.post("/index.php/settings/personal/app-passwords", { config: { accountRefusal } }, async (request, reply) => {
        const { principal } = request;
        const translator = userTranslator(request, principal);
        const created = await app.services.appPasswords.create(principal.user.uid, formField(request, "name") ?? "");
        if (!created.ok) return sendAccountRefusal(request, reply, created);
        const { secret, appPassword } = created.value;
        app.services.log.info(
          { event: "app_password_created", uid: principal.user.uid, id: appPassword.id },
          "app password created",
        );
        const message = newAppPasswordNotice(translator, { name: appPassword.name, secret, uid: principal.user.uid });
        // Post/redirect/get: the new password travels to the next page view once (settings-flash.ts).
        return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.personal.path, {
          sectionId: "app-passwords",
          message,
        });
      });
    }),
  );

  await app.register(
    guarded(SESSION_FORM, (forms) => {
      forms.post("/index.php/settings/personal/app-passwords/:id/revoke", async (request, reply) => {
        const { principal } = request;
        const { t } = userTranslator(request, principal);
        const id = Number((request.params as { id: string }).id);
        const revoked = Number.isSafeInteger(id) && (await app.services.appPasswords.revoke(principal.user.uid, id));
        if (revoked) {
          app.services.log.info({ event: "app_password_revoked", uid: principal.user.uid, id }, "app password revoked");
        }
        return answerInSection(request, reply, principal, {
          page: "personal",
          sectionId: "app-passwords",
          ok: revoked,
          text: revoked ? t("pages:appPasswords.revoked") : t("pages:appPasswords.noSuch"),
          status: revoked ? 200 : 404,
        });
      });
    }),
  );
}
