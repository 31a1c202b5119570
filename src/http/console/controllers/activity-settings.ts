import type { FastifyInstance } from "fastify";
import { STREAM_SETTING_TYPES } from "../../../activity/domain/stream-settings.js";
import { sendActivityError } from "../../activity-errors.js";
import { userTranslator } from "../../i18n.js";
import { apiRead, apiWrite, guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { streamSettingsRouteSchema, updateStreamSettingsRouteSchema } from "../../schemas/activity.js";
import { answerInSection } from "../page.js";
import { streamSettingsSection } from "../views/stream-settings.js";

const SECTION_ID = "activity-stream";
const FORM_PATH = "/index.php/apps/activity/settings";

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
      const settings = await app.services.activity.streamSettings(principal.user.uid);
      return streamSettingsSection(translator, { action: FORM_PATH, settings, csrfToken, flash });
    },
  });

  await app.register(
    guarded(SESSION_FORM, (forms) => {
      forms.post(FORM_PATH, async (request, reply) => {
        const { principal } = request;
        const body = (request.body ?? {}) as Record<string, unknown>;
        const stream = Object.fromEntries(STREAM_SETTING_TYPES.map((s) => [s.type, body[`stream_${s.type}`] !== undefined]));
        const result = await app.services.activity.updateStreamSettings(principal.user.uid, { stream });
        const { t } = userTranslator(request, principal);
        // Saved or not, the page answers 200; the section says which.
        return answerInSection(request, reply, principal, {
          page: "personal",
          sectionId: SECTION_ID,
          ok: result.ok,
          text: t(result.ok ? "pages:activitySettings.saved" : "pages:activitySettings.notSaved"),
          status: 200,
        });
      });
    }),
  );
}
