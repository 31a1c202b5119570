import type { FastifyInstance } from "fastify";
import { NOTIFICATION_SWITCHES } from "../../../notifications/domain/kinds.js";
import { userTranslator } from "../../i18n.js";
import { guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { redirectWithFlash } from "../settings-flash.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { outcomeParagraph } from "../views/messages.js";
import { notificationSwitchesSection } from "../views/notification-switches.js";

const SECTION_ID = "notifications";
const PATH = `${SETTINGS_PAGES.personal.path}/notifications`;

/**
 * Personal settings: one switch per kind of notification (src/notifications/domain/kinds.ts); a
 * kind switched off is not created. An administrator's message has no switch.
 */
export async function notificationSettingsRoutes(app: FastifyInstance): Promise<void> {
  const { notifications } = app.services;

  app.settingsSections.push({
    id: SECTION_ID,
    page: "personal",
    order: 45,
    render: async ({ principal, csrfToken, flash, t }) => {
      const on = await notifications.switches(principal.user.uid);
      return notificationSwitchesSection(t, { action: PATH, on, csrfToken, flash });
    },
  });

  // Post/redirect/get: the page after saving says so at the top of the section.
  await app.register(
    guarded(SESSION_FORM, (forms) => {
      forms.post(PATH, async (request, reply) => {
        const { principal } = request;
        const body = (request.body ?? {}) as Record<string, unknown>;
        const on = Object.fromEntries(NOTIFICATION_SWITCHES.map((name) => [name, body[`notify_${name}`] !== undefined]));
        await notifications.setSwitches(principal.user.uid, on as Record<(typeof NOTIFICATION_SWITCHES)[number], boolean>);
        app.services.log.info({ event: "notification_settings_saved", uid: principal.user.uid }, "notification settings saved");
        const { t } = userTranslator(request, principal);
        const message = outcomeParagraph(true, t("notifications:settings.saved"), "notification-settings-saved", "status");
        return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.personal.path, { sectionId: SECTION_ID, message });
      });
    }),
  );
}
