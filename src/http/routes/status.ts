import type { FastifyInstance } from "fastify";
import { statusRouteSchema } from "../schemas/ocs.js";
import { serverStatus } from "../server-status.js";

/** `GET /status.php`: the server's status (server-status.ts), public and never cached. */
export async function statusRoutes(app: FastifyInstance): Promise<void> {
  app.get("/status.php", { schema: statusRouteSchema }, async (_request, reply) => {
    reply.header("cache-control", "no-store").header("access-control-allow-origin", "*");
    return serverStatus(app);
  });
}
