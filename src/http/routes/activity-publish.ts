import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sendActivityError } from "../activity-errors.js";
import { administrator, apiOrigin, apiUser, guarded, type RouteGuard } from "../plugins/route-guards.js";
import { publishRouteSchema } from "../schemas/activity.js";

function sendAdminsOnly(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.status(403).send({ error: "forbidden", error_description: "Only administrators can publish activities." });
}

/** Any API credential of an administrator, then the CSRF proof of a browser session. */
const ADMIN_API_WRITE: RouteGuard = {
  name: "admin api write",
  identify: apiUser(),
  checks: [administrator(sendAdminsOnly), apiOrigin],
  scope: "activity:write",
};

/**
 * `POST /index.php/apps/activity/api/v2/events`: an administrator publishes one event or an
 * array of events. All-or-nothing: one bad element answers 400 naming it, and nothing is written.
 * With `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) a retry within 24 h gets the
 * first answer again (201, same body, plus `Idempotent-Replayed: true`) and writes nothing; the
 * same key with another body → 422, a malformed key → 400. Keys are per administrator.
 * The body schema documents the event; the domain's `validateBatch` (shared with `occ
 * activity:publish`) decides and words the refusal, so the schema's own verdict is not acted on.
 */
export async function activityPublishRoutes(app: FastifyInstance): Promise<void> {
  await app.register(guarded(ADMIN_API_WRITE, publishRoutes));
}

async function publishRoutes(writes: FastifyInstance): Promise<void> {
  writes.post(
    "/index.php/apps/activity/api/v2/events",
    { schema: publishRouteSchema, attachValidation: true },
    async (request, reply) => {
      const { principal } = request;
      const key = request.headers["idempotency-key"];
      const by = principal.user.uid;
      if (key === undefined) {
        const result = await writes.services.activity.publish(request.body);
        if (!result.ok) return sendActivityError(request, reply, result.error);
        request.log.info({ event: "activity_published", by, count: result.value.length }, "activities published");
        return reply.status(201).send({ ids: result.value });
      }
      // Node joins repeated headers with ", ": two keys are one malformed key, refused by the parser.
      const raw = Array.isArray(key) ? key.join(", ") : key;
      const result = await writes.services.activity.publishOnce(request.body, { kind: "user", uid: by }, raw);
      if (!result.ok) return sendActivityError(request, reply, result.error);
      const { ids, replayed } = result.value;
      if (replayed) {
        request.log.info({ event: "activity_publish_replayed", by, count: ids.length }, "idempotent publish replayed");
        reply.header("idempotent-replayed", "true");
      } else {
        request.log.info({ event: "activity_published", by, count: ids.length }, "activities published");
      }
      return reply.status(201).send({ ids });
    },
  );
}
