import type { FastifyInstance } from "fastify";
import { sendActivityError } from "../activity-errors.js";
import { apiWriteAllowed, requireUser } from "../plugins/authentication.js";

/**
 * `POST /index.php/apps/activity/api/v2/events`: an administrator publishes one event or an
 * array of events. All-or-nothing: one bad element answers 400 naming it, and nothing is written.
 */
export async function activityPublishRoutes(app: FastifyInstance): Promise<void> {
  app.post("/index.php/apps/activity/api/v2/events", async (request, reply) => {
    const principal = await requireUser(request, reply);
    if (!principal) return;
    if (!principal.user.isAdmin) {
      return reply.status(403).send({ error: "forbidden", error_description: "Only administrators can publish activities." });
    }
    if (!apiWriteAllowed(request, reply, principal)) return;
    const result = await app.services.activity.publish(request.body);
    if (!result.ok) return sendActivityError(request, reply, result.error);
    request.log.info({ event: "activity_published", by: principal.user.uid, count: result.value.length }, "activities published");
    return reply.status(201).send({ ids: result.value });
  });
}
