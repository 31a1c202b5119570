import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { assetSource, hashedAsset, serveHashedAssets } from "./hashed-assets.js";

const SCRIPTS_DIR = "/index.php/js";

/**
 * The library's UMD bundle as the package ships it (`dist/bundle/index.umd.min.js`), read once. The
 * package's `exports` map names no such subpath, so it is found beside the resolved entry point.
 */
function libraryBundle(): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve("@simplewebauthn/browser"));
  while (path.basename(dir) !== "browser" && dir !== path.dirname(dir)) dir = path.dirname(dir);
  return readFileSync(path.join(dir, "dist", "bundle", "index.umd.min.js"), "utf8");
}

/** `@simplewebauthn/browser`'s own bundle (it defines `SimpleWebAuthnBrowser`), served from this origin. */
const WEBAUTHN_LIBRARY = hashedAsset(SCRIPTS_DIR, "simplewebauthn-browser", "js", libraryBundle());
export const WEBAUTHN_LIBRARY_PATH = WEBAUTHN_LIBRARY.path;

/**
 * The ceremonies (src/http/assets/passkeys.js), wired by data attributes so the pages carry no
 * inline script (their CSP is `script-src 'self'`):
 * - `form[data-passkey-register]`: posts the form (request token, name, password confirmation) to
 *   `data-options`, runs the registration with the options returned, posts the answer to the form's
 *   action, and goes where the answer says;
 * - `button[data-passkey-sign-in]` (and, where the browser has it, conditional mediation on the
 *   login form's user field): options from `data-options`, the assertion posted to `data-verify`;
 * - `button[data-passkey-challenge]`: options from `data-options` (the challenge form's fields),
 *   then the assertion submitted as the challenge form's `code`.
 * Failures are written into the element `data-status` names (a live region).
 */
const PASSKEY_SCRIPT = hashedAsset(SCRIPTS_DIR, "passkeys", "js", assetSource("passkeys.js"));
export const PASSKEY_SCRIPT_PATH = PASSKEY_SCRIPT.path;

export function passkeyScriptRoutes(app: FastifyInstance): void {
  serveHashedAssets(app, SCRIPTS_DIR, [WEBAUTHN_LIBRARY, PASSKEY_SCRIPT]);
}
