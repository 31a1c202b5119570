import type { FastifyInstance } from "fastify";
import { serveHashedAssets } from "../hashed-assets.js";
import { STYLESHEET, STYLESHEET_DIR } from "../pages/stylesheet.js";

/**
 * Static assets of the pages: the stylesheet under its content-hashed name (http/hashed-assets.ts).
 * The name changes with the content, so the file may be cached for a year and never revalidated
 * (`immutable`); an old name is a 404, and a page always names the current one.
 */
export async function assetRoutes(app: FastifyInstance): Promise<void> {
  serveHashedAssets(app, STYLESHEET_DIR, [STYLESHEET]);
}
