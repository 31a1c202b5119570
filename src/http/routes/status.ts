import type { FastifyInstance } from "fastify";
import { PRODUCT } from "../../product.js";
import { statusRouteSchema } from "../schemas/ocs.js";

/**
 * `GET /status.php`, as ownCloud answers it: clients (desktop, mobile) probe it without
 * credentials and need the `installed` key; `version` ≥ 10 and a product name that is not
 * "Nextcloud" keep the ownCloud desktop client in its supported mode (docs/upstream/desktop-clients.md,
 * ownCloud client §1).
 */
export function serverStatus(app: FastifyInstance) {
  return {
    installed: true,
    maintenance: app.services.settings.get("maintenance"),
    needsDbUpgrade: app.needsDbUpgrade,
    version: PRODUCT.version,
    versionstring: PRODUCT.versionString,
    edition: PRODUCT.edition,
    productname: PRODUCT.name,
    product: PRODUCT.name,
    // False while config.json is invalid and the last valid host settings are in force: the site
    // works on, so the answer stays 200 (a 503 would stop every desktop client); the message is
    // in the log and /health/ready, not here, as status.php is public (docs/decisions.md).
    configValid: app.services.settings.problem() === undefined,
  };
}

export async function statusRoutes(app: FastifyInstance): Promise<void> {
  app.get("/status.php", { schema: statusRouteSchema }, async (_request, reply) => {
    reply.header("cache-control", "no-store").header("access-control-allow-origin", "*");
    return serverStatus(app);
  });
}
