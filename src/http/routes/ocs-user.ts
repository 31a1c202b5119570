import type { FastifyInstance } from "fastify";
import { ACCOUNT_SCOPE } from "../../oauth/domain/scope.js";
import { ocsVersionOf, sendOcs } from "../ocs.js";
import { apiRead, guarded } from "../plugins/route-guards.js";
import { userRouteSchema } from "../schemas/ocs.js";

/**
 * `GET /ocs/v{1,2}.php/cloud/user`: who the credentials belong to (clients call it after login). A
 * token needs the account scope: the answer includes the e-mail address, and only the desktop and
 * mobile clients, which are granted the account scope, call it.
 */
export async function ocsUserRoutes(app: FastifyInstance): Promise<void> {
  await app.register(
    guarded(apiRead(ACCOUNT_SCOPE), (reads) => {
      for (const path of ["/ocs/v1.php/cloud/user", "/ocs/v2.php/cloud/user"]) {
        reads.get(path, { schema: userRouteSchema }, async (request, reply) => {
          const { user } = request.principal;
          return sendOcs(request, reply, ocsVersionOf(request.url), {
            id: user.uid,
            "display-name": user.displayName,
            displayname: user.displayName,
            email: user.email,
            enabled: user.enabled,
          });
        });
      }
    }),
  );
}
