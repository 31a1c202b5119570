import type { FastifyInstance } from "fastify";
import { STREAM_SETTING_TYPES } from "../../../activity/domain/stream-settings.js";
import type { MessageKey } from "../../../i18n/index.js";
import { sendActivityError } from "../../activity-errors.js";
import { html } from "../../html.js";
import { userTranslator } from "../../i18n.js";
import { translatedHtml } from "../../pages/translated-html.js";
import { apiRead, apiWrite, guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { streamSettingsRouteSchema, updateStreamSettingsRouteSchema } from "../../schemas/activity.js";
import { sendSettingsPage } from "../page.js";

const SECTION_ID = "activity-stream";

/**
 * The user's stream settings (which types the stream lists; they drive the 204 rule):
 * `GET|PUT /index.php/apps/activity/api/v2/settings` as JSON `{"stream": {"<type>": bool}}`,
 * and a section of the personal settings page whose form posts to /index.php/apps/activity/settings.
 */
export async function activitySettingsRoutes(app: FastifyInstance): Promise<void> {
  const path = "/index.php/apps/activity/api/v2/settings";

  // No credentials at all is 403 on the activity API: the answer of the "not logged in" branch of
  // nextcloud/activity lib/Controller/APIv2Controller.php (docs/upstream/nextcloud-activity.md §1.2).
  await app.register(
    guarded(apiRead("activity:read", { anonymousStatus: 403 }), (reads) => {
      reads.get(path, { schema: streamSettingsRouteSchema }, async (request, reply) =>
        reply
          .header("cache-control", "no-store")
          .send({ stream: await app.services.activity.streamSettings(request.principal.user.uid) }),
      );
    }),
  );

  // The domain's parseStreamSettingsUpdate decides and words a refusal; the schema documents the body.
  await app.register(
    guarded(apiWrite("activity:write", { anonymousStatus: 403 }), (writes) => {
      writes.put(path, { schema: updateStreamSettingsRouteSchema, attachValidation: true }, async (request, reply) => {
        const result = await app.services.activity.updateStreamSettings(request.principal.user.uid, request.body);
        if (!result.ok) return sendActivityError(request, reply, result.error);
        return reply.header("cache-control", "no-store").send({ stream: result.value });
      });
    }),
  );

  app.settingsSections.push({
    id: SECTION_ID,
    page: "personal",
    order: 40,
    render: async ({ principal, csrfToken, flash, translator }) => {
      const { t } = translator;
      const settings = await app.services.activity.streamSettings(principal.user.uid);
      const stream = html`<a href="/index.php/apps/activity/">${t("pages:activitySettings.streamLink")}</a>`;
      return html`<h2>${t("pages:activitySettings.heading")}</h2>
<p class="muted">${translatedHtml(translator, "pages:activitySettings.intro", { stream })}</p>
${flash ?? ""}
<form method="post" action="/index.php/apps/activity/settings" id="activity-stream-settings">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<fieldset class="plain"><legend class="visually-hidden">${t("pages:activitySettings.heading")}</legend>${STREAM_SETTING_TYPES.map(
        (s) =>
          html`<label class="check" for="stream-${s.type}"><input type="checkbox" id="stream-${s.type}" name="stream_${s.type}" value="1"${settings[s.type] ? html` checked` : ""}> ${t(`pages:activityType.${s.type}` as MessageKey)}</label>`,
      )}</fieldset>
<div class="actions"><button type="submit">${t("pages:activitySettings.save")}</button></div>
</form>`;
    },
  });

  await app.register(
    guarded(SESSION_FORM, (forms) => {
      forms.post("/index.php/apps/activity/settings", async (request, reply) => {
        const { principal } = request;
        const body = (request.body ?? {}) as Record<string, unknown>;
        const stream = Object.fromEntries(STREAM_SETTING_TYPES.map((s) => [s.type, body[`stream_${s.type}`] !== undefined]));
        const result = await app.services.activity.updateStreamSettings(principal.user.uid, { stream });
        const { t } = userTranslator(request, principal);
        const message = result.ok
          ? html`<p class="notice">${t("pages:activitySettings.saved")}</p>`
          : html`<p class="error">${t("pages:activitySettings.notSaved")}</p>`;
        return sendSettingsPage(request, reply, principal, "personal", { sectionId: SECTION_ID, message });
      });
    }),
  );
}
