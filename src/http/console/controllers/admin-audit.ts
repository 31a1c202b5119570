import { Readable } from "node:stream";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { auditEventJson } from "../../../audit/domain/present.js";
import { type AuditQueryText, parseAuditQuery } from "../../../audit/domain/query.js";
import { ADMIN_PAGE, guarded } from "../../plugins/route-guards.js";
import { refusalStatus } from "../../refusals.js";
import { AUDIT_EXPORT_PATH, auditSection, ownAuditSection } from "../views/audit.js";

const SECTION_ID = "audit";
/** Events per page on the administrators' section; one more is read to know whether older ones exist. */
const PAGE_SIZE = 50;
/** Events a user's own view shows. */
const OWN_EVENTS = 20;
/** Events read per statement while an export streams. */
const EXPORT_BATCH = 500;

/** The filters of a request's query string, as text. */
function filterText(request: FastifyRequest): AuditQueryText {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : undefined);
  return { user: text("user"), kind: text("kind"), since: text("since"), until: text("until"), before: text("before") };
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
      const retentionDays = settings.get("audit.retention_days");
      const parsed = parseAuditQuery(text, PAGE_SIZE, PAGE_SIZE);
      if (!parsed.ok) {
        return auditSection(translator, { text, retentionDays, found: { refusedField: t(FIELD_LABELS[parsed.code]) } });
      }
      const query = parsed.value;
      const found = await audit.query({ ...query, limit: PAGE_SIZE + 1 });
      const events = found.slice(0, PAGE_SIZE);
      const last = events.at(-1);
      const olderBefore = found.length > PAGE_SIZE && last !== undefined ? last.id : undefined;
      return auditSection(translator, { text, retentionDays, found: { events, olderBefore } });
    },
  });

  app.settingsSections.push({
    id: "own-audit",
    page: "personal",
    order: 45,
    render: async ({ principal, translator }) => {
      const events = await audit.query({ concerning: principal.user.uid, limit: OWN_EVENTS });
      return ownAuditSection(translator, events);
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
