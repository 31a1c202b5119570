import type { FastifyInstance } from "fastify";
import { html } from "../html.js";
import { userTranslator } from "../i18n.js";
import { ADMIN_FORM, guarded } from "../plugins/route-guards.js";
import { redirectWithFlash } from "../settings-flash.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { formatDate, formField, sendSettingsPage } from "./settings.js";

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
      const { t } = translator;
      const failing = await addressThrottles.failing(SHOWN_PER_THROTTLE);
      const label = {
        address: t("settings:lockouts.address"),
        throttle: t("settings:lockouts.throttle"),
        failures: t("settings:lockouts.failures"),
        lastFailure: t("settings:lockouts.lastFailure"),
        state: t("settings:lockouts.state"),
      };
      const state = (lockedSeconds: number, delayMs: number) =>
        lockedSeconds > 0
          ? t("settings:lockouts.lockedFor", { minutes: Math.ceil(lockedSeconds / 60) })
          : t("settings:lockouts.delayed", { seconds: Math.ceil(delayMs / 1000) });
      return html`<h2>${t("settings:lockouts.title")}</h2>
<p class="muted">${t("settings:lockouts.intro")}</p>
${flash ?? ""}
${
  failing.length === 0
    ? html`<p class="muted" id="lockout-list">${t("settings:lockouts.none")}</p>`
    : html`<table class="responsive" id="lockout-list"><thead><tr><th scope="col">${label.address}</th><th scope="col">${label.throttle}</th><th scope="col">${label.failures}</th><th scope="col">${label.lastFailure}</th><th scope="col">${label.state}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${failing.map(
  (row) =>
    html`<tr><td data-label="${label.address}" class="wrap-anywhere">${row.countedAs}</td><td data-label="${label.throttle}">${t(`settings:lockouts.throttle.${row.namespace}` as "settings:lockouts.throttle.login")}</td><td data-label="${label.failures}">${row.failures}</td><td data-label="${label.lastFailure}">${formatDate(translator, row.lastFailureAt)}</td><td data-label="${label.state}">${state(row.lockedSeconds, row.delayMs)}</td><td class="actions-cell"><form method="post" action="${RESET_PATH}"><input type="hidden" name="requesttoken" value="${csrfToken}"><input type="hidden" name="address" value="${row.countedAs}"><button type="submit" class="small" aria-label="${t("settings:lockouts.liftNamed", { address: row.countedAs })}">${t("settings:lockouts.lift")}</button></form></td></tr>`,
)}
</tbody></table>`
}`;
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
          const message = html`<p class="notice" id="lockouts-notice">${t("settings:lockouts.lifted", { address: states[0]?.countedAs ?? address, count: failures })}</p>`;
          return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.security.path, { sectionId: SECTION_ID, message });
        } else {
          const message = html`<p class="error" id="lockouts-error" role="alert">${t(reset.phrase.key, reset.phrase.values)}</p>`;
          return sendSettingsPage(request, reply, principal, "security", { sectionId: SECTION_ID, message }, 400);
        }
      });
    }),
  );
}
