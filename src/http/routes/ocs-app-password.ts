import type { FastifyInstance } from "fastify";
import { sendOcs } from "../ocs.js";
import { requireUser } from "../plugins/authentication.js";
import { appPasswordDeleteRouteSchema } from "../schemas/ocs.js";

/**
 * `DELETE /ocs/v2.php/core/apppassword`: the app password the request is made with revokes itself
 * (Nextcloud's core API; the Nextcloud desktop client sends it when the user removes the account,
 * docs/upstream/desktop-clients.md, Nextcloud client §5). Only an app password can delete itself: a session,
 * account password or bearer token gets 403, as upstream answers.
 */
export async function ocsAppPasswordRoutes(app: FastifyInstance): Promise<void> {
  app.delete("/ocs/v2.php/core/apppassword", { schema: appPasswordDeleteRouteSchema }, async (request, reply) => {
    const principal = await requireUser(request, reply);
    if (!principal) return;
    const id = principal.appPasswordId;
    if (principal.method !== "app-password" || id === undefined) {
      return sendOcs(request, reply, 2, [], 403, "Only an app password can delete itself.");
    }
    await app.services.appPasswords.revoke(principal.user.uid, id);
    app.services.log.info({ event: "app_password_revoked", uid: principal.user.uid, id, by: "client" }, "app password revoked");
    return sendOcs(request, reply, 2, []);
  });
}
