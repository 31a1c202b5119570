import type { FastifyInstance } from "fastify";
import { assetSource, hashedAsset, serveHashedAssets } from "./hashed-assets.js";

/**
 * The settings pages' one script (src/http/assets/copy-secret.js): a "Copy" button copies the text
 * of the element it names (a secret shown once). A file of its own, because the pages' CSP is
 * `script-src 'self'` (no inline script); without JavaScript the secret can still be selected and
 * copied by hand.
 */
const COPY_SCRIPT_DIR = "/index.php/settings/js";
const COPY_SCRIPT = hashedAsset(COPY_SCRIPT_DIR, "copy-secret", "js", assetSource("copy-secret.js"));

export const COPY_SCRIPT_PATH = COPY_SCRIPT.path;

export function copyScriptRoute(app: FastifyInstance): void {
  serveHashedAssets(app, COPY_SCRIPT_DIR, [COPY_SCRIPT]);
}
