import type { FastifyInstance } from "fastify";
import { sessionId } from "../../../accounts/sessions.js";
import { auditSessionEnded } from "../../audit-sign-in.js";
import { html } from "../../html.js";
import { userTranslator } from "../../i18n.js";
import { guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { sendSettingsPage } from "../page.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { formatDate } from "../views/format.js";

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
      const { t } = translator;
      const current = principal.session ? sessionId(principal.session) : undefined;
      const list = await sessions.listOf(principal.user.uid);
      const label = {
        browser: t("settings:sessions.browser"),
        created: t("settings:sessions.created"),
        lastSeen: t("settings:sessions.lastSeen"),
      };
      return html`<h2>${t("settings:sessions.title")}</h2>
${flash ?? ""}
<table class="responsive" id="session-list"><thead><tr><th scope="col">${label.browser}</th><th scope="col">${label.created}</th><th scope="col">${label.lastSeen}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${list.map((s) => {
  const browser = s.userAgent ?? t("settings:sessions.unknownBrowser");
  const action =
    s.id === current
      ? html`<strong class="current-session">${t("settings:sessions.current")}</strong>`
      : html`<form method="post" action="${PATH}/sessions/${s.id}/end">
<input type="hidden" name="requesttoken" value="${csrfToken}"><button class="danger small" type="submit" aria-label="${t("settings:sessions.endNamed", { browser })}">${t("settings:sessions.end")}</button></form>`;
  return html`<tr><td data-label="${label.browser}" class="wrap-anywhere">${browser}</td><td data-label="${label.created}">${formatDate(translator, s.createdAt)}</td><td data-label="${label.lastSeen}">${formatDate(translator, s.lastSeenAt)}</td><td class="actions-cell">${action}</td></tr>`;
})}
</tbody></table>`;
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
        const message = ended
          ? html`<p class="notice" id="session-ended">${t("settings:sessions.ended")}</p>`
          : html`<p class="error" id="session-error">${t("settings:sessions.noSuch")}</p>`;
        return sendSettingsPage(request, reply, principal, "personal", { sectionId: "sessions", message }, ended ? 200 : 404);
      });
    }),
  );
}
