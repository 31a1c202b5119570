import { ANONYMOUS_ACTOR, AUDIT_KINDS, type AuditKind, OCC_ACTOR, SYSTEM_ACTOR } from "../../../audit/domain/kinds.js";
import type { AuditQueryText } from "../../../audit/domain/query.js";
import type { AuditEvent } from "../../../audit/ports.js";
import type { Translator } from "../../../i18n/index.js";
import { html, type SafeHtml } from "../../html.js";
import { SETTINGS_PAGES } from "../settings-sections.js";

/** The streamed JSON-lines download of the events the filters select. */
export const AUDIT_EXPORT_PATH = "/index.php/settings/admin/security/audit.jsonl";
const FILTER_FIELDS = ["user", "kind", "since", "until"] as const;

/** The query string of the filters (no cursor), plus `extra`. */
function filterSearch(text: AuditQueryText, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const name of FILTER_FIELDS) {
    const value = text[name]?.trim();
    if (value) params.set(name, value);
  }
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const search = params.toString();
  return search === "" ? "" : `?${search}`;
}

function actorLabel(t: Translator["t"], actor: string): string {
  if (actor === OCC_ACTOR) return t("audit:actor.occ");
  if (actor === SYSTEM_ACTOR) return t("audit:actor.system");
  if (actor === ANONYMOUS_ACTOR) return t("audit:actor.anonymous");
  return actor;
}

const kindLabel = (t: Translator["t"], kind: AuditKind) => t(`audit:kind.${kind}` as "audit:kind.sign_in.succeeded");

function concerning(event: AuditEvent): string {
  const subject = event.subject === null || event.subject === event.uid ? "" : `${event.subjectType}: ${event.subject}`;
  return [event.uid ?? "", subject].filter(Boolean).join(" · ");
}

/** The events as a table (the administrators' columns, or a user's own fewer). */
function eventTable(translator: Translator, events: readonly AuditEvent[], id: string, own: boolean): SafeHtml {
  const { t } = translator;
  const label = {
    time: t("audit:column.time"),
    event: t("audit:column.event"),
    actor: t("audit:column.actor"),
    subject: t("audit:column.subject"),
    address: t("audit:column.address"),
    userAgent: t("audit:column.userAgent"),
    requestId: t("audit:column.requestId"),
    detail: t("audit:column.detail"),
  };
  const detail = (e: AuditEvent) =>
    e.detail === null ? "" : html`<code class="audit-detail">${JSON.stringify(e.detail)}</code>`;
  const head = own
    ? html`<th scope="col">${label.time}</th><th scope="col">${label.event}</th><th scope="col">${label.actor}</th><th scope="col">${label.address}</th><th scope="col">${label.userAgent}</th><th scope="col">${label.detail}</th>`
    : html`<th scope="col">${label.time}</th><th scope="col">${label.event}</th><th scope="col">${label.actor}</th><th scope="col">${label.subject}</th><th scope="col">${label.address}</th><th scope="col">${label.userAgent}</th><th scope="col">${label.requestId}</th><th scope="col">${label.detail}</th>`;
  const row = (e: AuditEvent) =>
    own
      ? html`<tr><td data-label="${label.time}">${translator.dates.dateTime(e.at)}</td><td data-label="${label.event}">${kindLabel(t, e.kind)}</td><td data-label="${label.actor}">${actorLabel(t, e.actor)}</td><td data-label="${label.address}">${e.address ?? ""}</td><td data-label="${label.userAgent}" class="wrap-anywhere">${e.userAgent ?? ""}</td><td data-label="${label.detail}">${detail(e)}</td></tr>`
      : html`<tr data-kind="${e.kind}"><td data-label="${label.time}">${translator.dates.dateTime(e.at)}</td><td data-label="${label.event}">${kindLabel(t, e.kind)}</td><td data-label="${label.actor}">${actorLabel(t, e.actor)}</td><td data-label="${label.subject}" class="wrap-anywhere">${concerning(e)}</td><td data-label="${label.address}">${e.address ?? ""}</td><td data-label="${label.userAgent}" class="wrap-anywhere">${e.userAgent ?? ""}</td><td data-label="${label.requestId}" class="wrap-anywhere">${e.requestId ?? ""}</td><td data-label="${label.detail}">${detail(e)}</td></tr>`;
  return html`<table class="responsive" id="${id}"><thead><tr>${head}</tr></thead><tbody>
${events.map(row)}
</tbody></table>`;
}

function filterForm(t: Translator["t"], text: AuditQueryText): SafeHtml {
  const value = (name: keyof AuditQueryText) => text[name]?.trim() ?? "";
  const dateValue = (name: "since" | "until") => (/^\d{4}-\d{2}-\d{2}$/.test(value(name)) ? value(name) : "");
  return html`<form method="get" action="${SETTINGS_PAGES.security.path}" id="audit-filters">
<fieldset class="plain"><legend class="visually-hidden">${t("audit:filter.legend")}</legend>
<div class="audit-filters">
<div><label for="audit-user">${t("audit:filter.user")}</label><input id="audit-user" name="user" type="text" maxlength="64" value="${value("user")}" aria-describedby="audit-user-hint" autocomplete="off"></div>
<div><label for="audit-kind">${t("audit:filter.kind")}</label><select id="audit-kind" name="kind"><option value="">${t("audit:filter.anyKind")}</option>${AUDIT_KINDS.map(
    (kind) => html`<option value="${kind}"${value("kind") === kind ? html` selected` : ""}>${kindLabel(t, kind)}</option>`,
  )}</select></div>
<div><label for="audit-since">${t("audit:filter.since")}</label><input id="audit-since" name="since" type="date" value="${dateValue("since")}"></div>
<div><label for="audit-until">${t("audit:filter.until")}</label><input id="audit-until" name="until" type="date" value="${dateValue("until")}"></div>
<div class="actions"><button type="submit">${t("audit:filter.apply")}</button><a href="${SETTINGS_PAGES.security.path}#audit-filters">${t("audit:filter.clear")}</a></div>
</div>
<p class="muted" id="audit-user-hint">${t("audit:filter.userHint")}</p></fieldset></form>`;
}

/** The security area's audit log: its heading and filters, then the events or why the filters were refused. */
export function auditSection(
  translator: Translator,
  model: {
    /** The filters as the query string has them. */
    text: AuditQueryText;
    retentionDays: number;
    /** The events of this page, newest first; or the name of the filter field that was refused. */
    found: { events: readonly AuditEvent[]; olderBefore: number | undefined } | { refusedField: string };
  },
): SafeHtml {
  const { t } = translator;
  const { text, found } = model;
  const intro = html`<h2 id="audit-title">${t("audit:admin.title")}</h2>
<p class="muted">${t("audit:admin.intro", { days: model.retentionDays })}</p>
${filterForm(t, text)}`;
  if ("refusedField" in found) {
    return html`${intro}<p class="error" id="audit-error" role="alert">${t("audit:filter.invalid", { field: found.refusedField })}</p>`;
  }
  const { events, olderBefore } = found;
  const older =
    olderBefore !== undefined
      ? html`<p><a id="audit-older" href="${SETTINGS_PAGES.security.path}${filterSearch(text, { before: String(olderBefore) })}#audit-title">${t("audit:older")}</a></p>`
      : "";
  return html`${intro}
<p><a id="audit-export" href="${AUDIT_EXPORT_PATH}${filterSearch(text)}" download>${t("audit:export")}</a></p>
${events.length === 0 ? html`<p class="muted" id="audit-list">${t("audit:none")}</p>` : eventTable(translator, events, "audit-list", false)}
${older}`;
}

/** The personal page's own recent events. */
export function ownAuditSection(translator: Translator, events: readonly AuditEvent[]): SafeHtml {
  const { t } = translator;
  return html`<h2>${t("audit:personal.title")}</h2>
<p class="muted">${t("audit:personal.intro")}</p>
${events.length === 0 ? html`<p class="muted" id="own-audit-list">${t("audit:personal.none")}</p>` : eventTable(translator, events, "own-audit-list", true)}`;
}
