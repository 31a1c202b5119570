import type { FastifyInstance } from "fastify";
import { sessionId } from "../../../accounts/sessions.js";
import { auditSessionEnded } from "../../audit-sign-in.js";
import { userTranslator } from "../../i18n.js";
import { guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { answerInSection } from "../page.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { sessionsSection } from "../views/sessions.js";

const PATH = SETTINGS_PAGES.personal.path;

/** A session id on the page and in the form: the stored SHA-256 hex (sessions.ts sessionId). */
const SESSION_ID = /^[0-9a-f]{64}$/;

/**
 * Personal settings: one's own live browser sessions, with an End button for each
 * other one. A session is named by the hash the table stores, never by its cookie value.
 */
export async function personalSessionsRoutes(app: FastifyInstance): Promise<void> {
  const { sessions, log } = app.services;

  app.settingsSections.push({
    id: "sessions",
    page: "personal",
    order: 40,
    render: async ({ principal, csrfToken, flash, translator }) => {
      const current = principal.session ? sessionId(principal.session) : undefined;
      const list = await sessions.listOf(principal.user.uid);
      return sessionsSection(translator, { path: PATH, sessions: list, current, csrfToken, flash });
    },
  });

  // Ends one of the user's own other sessions; another user's session id (or the current one,
  // which has the Log out link) ends nothing and answers 404.
  await app.register(
    guarded(SESSION_FORM, (forms) => {
      forms.post(`${PATH}/sessions/:id/end`, async (request, reply) => {
        const { principal } = request;
        const { t } = userTranslator(request, principal);
        const { uid } = principal.user;
        const id = (request.params as { id: string }).id;
        const current = principal.session ? sessionId(principal.session) : undefined;
        const ended = SESSION_ID.test(id) && id !== current && (await sessions.endOwn(uid, id));
        if (ended) {
          log.info({ event: "session_ended", uid, ip: request.ip }, "user ended one of their sessions");
          auditSessionEnded(request, uid, "others");
        }
        return answerInSection(request, reply, principal, {
          page: "personal",
          sectionId: "sessions",
          ok: ended,
          ...(ended
            ? { text: t("settings:sessions.ended"), id: "session-ended" }
            : { text: t("settings:sessions.noSuch"), id: "session-error" }),
          status: ended ? 200 : 404,
        });
      });
    }),
  );
}
