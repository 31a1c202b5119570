import type { FastifyInstance } from "fastify";
import { userTranslator } from "../../i18n.js";
import { ADMIN_FORM, guarded } from "../../plugins/route-guards.js";
import { answerInSection, formField } from "../page.js";
import { redirectWithFlash } from "../settings-flash.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { lockoutsSection } from "../views/lockouts.js";
import { outcomeParagraph } from "../views/messages.js";

const SECTION_ID = "lockouts";
const RESET_PATH = "/index.php/settings/admin/lockouts/reset";
/** Rows shown per throttle: an attack from many addresses would otherwise make the page unbounded. */
const SHOWN_PER_THROTTLE = 50;

/**
 * The admin page's throttled addresses: every client address whose failed attempts still count
 * (login and Basic, the token endpoints, Login Flow v2), whether it is locked out and for how long,
 * and a button that lifts it: what `./occ security:bruteforce:attempts` and `…:reset` do, through
 * the same AddressThrottles.
 */
export async function adminLockoutRoutes(app: FastifyInstance): Promise<void> {
  const { addressThrottles, log } = app.services;

  app.settingsSections.push({
    id: SECTION_ID,
    page: "security",
    order: 30,
    render: async ({ csrfToken, flash, translator }) => {
      const failing = await addressThrottles.failing(SHOWN_PER_THROTTLE);
      return lockoutsSection(translator, { failing, resetPath: RESET_PATH, csrfToken, flash });
    },
  });

  await app.register(
    guarded(ADMIN_FORM, (forms) => {
      forms.post(RESET_PATH, async (request, reply) => {
        const { principal } = request;
        const { t } = userTranslator(request, principal);
        const address = (formField(request, "address") ?? "").trim();
        const reset = await addressThrottles.reset(address);
        if (reset.ok) {
          const states = reset.value;
          const failures = states.reduce((total, state) => total + state.failures, 0);
          log.info(
            { event: "throttle_reset", address: states[0]?.countedAs ?? address, failures, by: principal.user.uid },
            "client address throttle lifted on the admin page",
          );
          const text = t("settings:lockouts.lifted", { address: states[0]?.countedAs ?? address, count: failures });
          const message = outcomeParagraph(true, text, "lockouts-notice");
          return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.security.path, { sectionId: SECTION_ID, message });
        } else {
          const text = t(reset.phrase.key, reset.phrase.values);
          return answerInSection(request, reply, principal, {
            page: "security",
            sectionId: SECTION_ID,
            ok: false,
            text,
            id: "lockouts-error",
            role: "alert",
          });
        }
      });
    }),
  );
}
