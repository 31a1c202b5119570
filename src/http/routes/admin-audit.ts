import { Readable } from "node:stream";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ANONYMOUS_ACTOR, AUDIT_KINDS, type AuditKind, OCC_ACTOR, SYSTEM_ACTOR } from "../../audit/domain/kinds.js";
import { auditEventJson } from "../../audit/domain/present.js";
import { type AuditQueryText, parseAuditQuery } from "../../audit/domain/query.js";
import type { AuditEvent } from "../../audit/ports.js";
import type { Translator } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";
import { ADMIN_PAGE, guarded } from "../plugins/route-guards.js";
import { refusalStatus } from "../refusals.js";
import { SETTINGS_PAGES } from "../settings-sections.js";

const SECTION_ID = "audit";
export const AUDIT_EXPORT_PATH = "/index.php/settings/admin/security/audit.jsonl";
/** Events per page on the administrators' section; one more is read to know whether older ones exist. */
const PAGE_SIZE = 50;
/** Events a user's own view shows. */
const OWN_EVENTS = 20;
/** Events read per statement while an export streams. */
const EXPORT_BATCH = 500;
const FILTER_FIELDS = ["user", "kind", "since", "until"] as const;

/** The filters of a request's query string, as text. */
function filterText(request: FastifyRequest): AuditQueryText {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : undefined);
  return { user: text("user"), kind: text("kind"), since: text("since"), until: text("until"), before: text("before") };
}

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

const FIELD_LABELS = {
  invalid_user: "audit:filter.user",
  invalid_kind: "audit:filter.kind",
  invalid_since: "audit:filter.since",
  invalid_until: "audit:filter.until",
  invalid_before: "audit:older",
  invalid_limit: "audit:older",
} as const;

/**
 * The audit log (src/audit) for administrators, on the console's security area: filters (user,
 * kind, time range) as a GET form, keyset paging ("older" carries the last event's id), and the
 * same events as a streamed JSON-lines download; and each user's own recent events on the personal
 * page. `./occ security:audit` reads the same log with the same filters (audit/domain/query.ts).
 */
export async function adminAuditRoutes(app: FastifyInstance): Promise<void> {
  const { audit, settings } = app.services;

  app.settingsSections.push({
    id: SECTION_ID,
    page: "security",
    order: 20,
    render: async ({ request, translator }) => {
      const { t } = translator;
      const text = filterText(request);
      const intro = html`<h2 id="audit-title">${t("audit:admin.title")}</h2>
<p class="muted">${t("audit:admin.intro", { days: settings.get("audit.retention_days") })}</p>
${filterForm(t, text)}`;
      const parsed = parseAuditQuery(text, PAGE_SIZE, PAGE_SIZE);
      if (!parsed.ok) {
        const field = t(FIELD_LABELS[parsed.code]);
        return html`${intro}<p class="error" id="audit-error" role="alert">${t("audit:filter.invalid", { field })}</p>`;
      }
      const query = parsed.value;
      const found = await audit.query({ ...query, limit: PAGE_SIZE + 1 });
      const events = found.slice(0, PAGE_SIZE);
      const last = events.at(-1);
      const older =
        found.length > PAGE_SIZE && last !== undefined
          ? html`<p><a id="audit-older" href="${SETTINGS_PAGES.security.path}${filterSearch(text, { before: String(last.id) })}#audit-title">${t("audit:older")}</a></p>`
          : "";
      return html`${intro}
<p><a id="audit-export" href="${AUDIT_EXPORT_PATH}${filterSearch(text)}" download>${t("audit:export")}</a></p>
${events.length === 0 ? html`<p class="muted" id="audit-list">${t("audit:none")}</p>` : eventTable(translator, events, "audit-list", false)}
${older}`;
    },
  });

  app.settingsSections.push({
    id: "own-audit",
    page: "personal",
    order: 45,
    render: async ({ principal, translator }) => {
      const { t } = translator;
      const events = await audit.query({ concerning: principal.user.uid, limit: OWN_EVENTS });
      return html`<h2>${t("audit:personal.title")}</h2>
<p class="muted">${t("audit:personal.intro")}</p>
${events.length === 0 ? html`<p class="muted" id="own-audit-list">${t("audit:personal.none")}</p>` : eventTable(translator, events, "own-audit-list", true)}`;
    },
  });

  await app.register(
    guarded(ADMIN_PAGE, (pages) => {
      pages.get(AUDIT_EXPORT_PATH, async (request, reply) => {
        const parsed = parseAuditQuery(filterText(request), EXPORT_BATCH, EXPORT_BATCH);
        if (!parsed.ok) return reply.status(refusalStatus(parsed)).type("text/plain; charset=utf-8").send(`${parsed.message}\n`);
        const query = parsed.value;
        // Streamed page by page (keyset on the id): an export of the whole log holds one batch in memory.
        async function* lines(): AsyncGenerator<string> {
          let before = query.before;
          for (;;) {
            const batch = await audit.query({ ...query, before, limit: EXPORT_BATCH });
            for (const event of batch) yield `${JSON.stringify(auditEventJson(event))}\n`;
            const oldest = batch.at(-1);
            if (batch.length < EXPORT_BATCH || oldest === undefined) return;
            before = oldest.id;
          }
        }
        return reply
          .header("content-type", "application/jsonl; charset=utf-8")
          .header("content-disposition", 'attachment; filename="keystream-audit.jsonl"')
          .header("cache-control", "no-store")
          .header("x-content-type-options", "nosniff")
          .send(Readable.from(lines()));
      });
    }),
  );
}
