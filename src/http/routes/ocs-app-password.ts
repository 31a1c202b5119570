import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ACCOUNT_SCOPE } from "../../oauth/domain/scope.js";
import { sendOcs } from "../ocs.js";
import { apiUser, guarded, type RouteGuard } from "../plugins/route-guards.js";
import { appPasswordDeleteRouteSchema } from "../schemas/ocs.js";

function sendAppPasswordsOnly(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendOcs(request, reply, 2, [], 403, "Only an app password can delete itself.");
}

/**
 * Any API credential, then an app password only: a session, account password or bearer token is
 * refused (403, as upstream answers). An app password travels in a Basic header a browser does
 * not send on its own, so passing proves the request is no cross-site one.
 */
const APP_PASSWORD_ONLY: RouteGuard = {
  name: "app password",
  identify: apiUser(),
  checks: [
    {
      provesOrigin: true,
      passes: (request, reply, principal) => {
        if (principal.method === "app-password" && principal.appPasswordId !== undefined) return true;
        sendAppPasswordsOnly(request, reply);
        return false;
      },
    },
  ],
  // Only app passwords pass the check below; the account scope says so to a bearer token.
  scope: ACCOUNT_SCOPE,
};

/**
 * `DELETE /ocs/v2.php/core/apppassword`: the app password the request is made with revokes itself
 * (Nextcloud's core/Controller/AppPasswordController.php; the Nextcloud desktop client sends it
 * when the user removes the account, docs/upstream/desktop-clients.md §5 of the Nextcloud client).
 */
export async function ocsAppPasswordRoutes(app: FastifyInstance): Promise<void> {
  await app.register(
    guarded(APP_PASSWORD_ONLY, (own) => {
      own.delete("/ocs/v2.php/core/apppassword", { schema: appPasswordDeleteRouteSchema }, async (request, reply) => {
        const { user, appPasswordId: id } = request.principal;
        if (id === undefined) return sendAppPasswordsOnly(request, reply);
        await app.services.appPasswords.revoke(user.uid, id);
        app.services.log.info({ event: "app_password_revoked", uid: user.uid, id, by: "client" }, "app password revoked");
        return sendOcs(request, reply, 2, []);
      });
    }),
  );
}
