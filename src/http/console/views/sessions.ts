import type { SessionSummary } from "../../../accounts/ports.js";
import type { Translator } from "../../../i18n/index.js";
import { html, type SafeHtml } from "../../html.js";
import { formatDate } from "./format.js";

/** Personal settings' live browser sessions, each but the current one with its End button. */
export function sessionsSection(
  translator: Translator,
  model: {
    /** Where the End forms post: `<path>/sessions/<id>/end`. */
    path: string;
    sessions: readonly SessionSummary[];
    /** The id of the session this page is seen in. */
    current: string | undefined;
    csrfToken: string;
    flash: SafeHtml | undefined;
  },
): SafeHtml {
  const { t } = translator;
  const { path, csrfToken, current } = model;
  const label = {
    browser: t("settings:sessions.browser"),
    created: t("settings:sessions.created"),
    lastSeen: t("settings:sessions.lastSeen"),
  };
  return html`<h2>${t("settings:sessions.title")}</h2>
${model.flash ?? ""}
<table class="responsive" id="session-list"><thead><tr><th scope="col">${label.browser}</th><th scope="col">${label.created}</th><th scope="col">${label.lastSeen}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${model.sessions.map((s) => {
  const browser = s.userAgent ?? t("settings:sessions.unknownBrowser");
  const action =
    s.id === current
      ? html`<strong class="current-session">${t("settings:sessions.current")}</strong>`
      : html`<form method="post" action="${path}/sessions/${s.id}/end">
<input type="hidden" name="requesttoken" value="${csrfToken}"><button class="danger small" type="submit" aria-label="${t("settings:sessions.endNamed", { browser })}">${t("settings:sessions.end")}</button></form>`;
  return html`<tr><td data-label="${label.browser}" class="wrap-anywhere">${browser}</td><td data-label="${label.created}">${formatDate(translator, s.createdAt)}</td><td data-label="${label.lastSeen}">${formatDate(translator, s.lastSeenAt)}</td><td class="actions-cell">${action}</td></tr>`;
})}
</tbody></table>`;
}
