import type { FastifyInstance } from "fastify";
import { keystreamRelease, PRODUCT } from "../product.js";

let cachedVersionString: string | undefined;

/**
 * The desktop clients compare `version` and `productname` only; Nextcloud's logs `versionstring`
 * (docs/upstream/desktop-clients.md, Part 1 §1 and Part 2 §1.3). It starts with the compatible
 * version, as Nextcloud's own "25.0.0 RC1" does, and names the Keystream build after it. Read once:
 * the files it comes from change only with a new release, which restarts the process.
 */
function versionString(): string {
  cachedVersionString ??= `${PRODUCT.versionString} Keystream ${keystreamRelease()}`;
  return cachedVersionString;
}

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
    versionstring: versionString(),
    edition: PRODUCT.edition,
    productname: PRODUCT.name,
    product: PRODUCT.name,
    // False while config.json is invalid and the last valid host settings are in force: the site
    // works on, so the answer stays 200 (a 503 would stop every desktop client); the message is
    // in the log and /health/ready, not here, as status.php is public (docs/decisions.md).
    configValid: app.services.settings.problem() === undefined,
  };
}
