import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";

/**
 * The pages' static files: scripts and the stylesheet, kept as real files in src/http/assets/ (which
 * Biome lints; `npm run build` copies them to dist/http/assets/, scripts/copy-assets.sh). Each is
 * read once at start-up and served under a name that carries a hash of its bytes, so it may be
 * cached for a year and never revalidated (`immutable`, RFC 8246); a change gives it a new name, an
 * old name is a 404, and a page always names the current one. Same origin, so the pages' CSP stays
 * `script-src 'self'` / `style-src 'self'`.
 */
export interface HashedAsset {
  /** The file's name in its URL directory: `<stem>-<sha256/16>.<js|css>`. */
  file: string;
  /** The URL the pages name. */
  path: string;
  body: string;
  contentType: string;
}

const CONTENT_TYPES = { js: "text/javascript; charset=utf-8", css: "text/css; charset=utf-8" } as const;

/** The text of `src/http/assets/<name>` (in a build, dist/http/assets/<name>). */
export function assetSource(name: string): string {
  return readFileSync(new URL(`./assets/${name}`, import.meta.url), "utf8");
}

/** `body` as `<dir>/<stem>-<hash>.<extension>`. */
export function hashedAsset(dir: string, stem: string, extension: keyof typeof CONTENT_TYPES, body: string): HashedAsset {
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 16);
  const file = `${stem}-${hash}.${extension}`;
  return { file, path: `${dir}/${file}`, body, contentType: CONTENT_TYPES[extension] };
}

/** `GET <dir>/:file` for every asset of one URL directory; any other name there is a 404. */
export function serveHashedAssets(app: FastifyInstance, dir: string, assets: readonly HashedAsset[]): void {
  const byFile = new Map(assets.map((asset) => [asset.file, asset]));
  app.get(`${dir}/:file`, async (request, reply) => {
    const asset = byFile.get((request.params as { file: string }).file);
    if (!asset) {
      return reply
        .status(404)
        .header("cache-control", "no-store")
        .send({ error: "not_found", error_description: "No such file." });
    }
    return reply
      .header("content-type", asset.contentType)
      .header("cache-control", "public, max-age=31536000, immutable")
      .header("x-content-type-options", "nosniff")
      .send(asset.body);
  });
}
