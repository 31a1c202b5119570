import type { FastifyInstance } from "fastify";
import { STYLESHEET, STYLESHEET_DIR, STYLESHEET_FILE } from "../pages/stylesheet.js";

/**
 * Static assets of the pages: the stylesheet under its content-hashed name. The name changes with
 * the content, so the file may be cached for a year and never revalidated (`immutable`); an old
 * name is a 404, and a page always names the current one.
 */
export async function assetRoutes(app: FastifyInstance): Promise<void> {
  app.get(`${STYLESHEET_DIR}/:file`, async (request, reply) => {
    if ((request.params as { file: string }).file !== STYLESHEET_FILE) {
      return reply
        .status(404)
        .header("cache-control", "no-store")
        .send({ error: "not_found", error_description: "No such file." });
    }
    return reply
      .header("content-type", "text/css; charset=utf-8")
      .header("cache-control", "public, max-age=31536000, immutable")
      .header("x-content-type-options", "nosniff")
      .send(STYLESHEET);
  });
}
