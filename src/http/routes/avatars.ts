import type { FastifyInstance } from "fastify";
import { apiRead, guarded } from "../plugins/route-guards.js";

/**
 * Avatar serving: any authenticated user, as ownCloud; a token needs `profile`, the scope whose
 * `picture` claim points here. The personal page's upload form is the console's (console/controllers/avatars.ts).
 */
export async function avatarRoutes(app: FastifyInstance): Promise<void> {
  const { avatars } = app.services;

  await app.register(
    guarded(apiRead("profile"), (reads) => {
      reads.get("/remote.php/dav/avatars/:uid/:file", async (request, reply) => {
        const avatar = await avatars.get((request.params as { uid: string }).uid);
        if (!avatar) return reply.status(404).send({ error: "not_found", error_description: "No avatar." });
        return reply
          .header("content-type", avatar.contentType)
          .header("cache-control", "private, max-age=0, must-revalidate")
          .header("x-content-type-options", "nosniff")
          .header("content-security-policy", "default-src 'none'")
          .send(avatar.data);
      });
    }),
  );
}
