import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The nginx forward-authentication snippets operators install (deploy/nginx/, docs/deployment.md
 * "Forward authentication"), for tests that put nginx in front of a file server: read from the
 * files themselves, so the documentation and the tests cannot drift apart.
 */
const DEPLOY_NGINX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../deploy/nginx");

/** To be included inside a location to protect, as it is. */
export const PROTECT_SNIPPET = path.join(DEPLOY_NGINX, "keystream-protect.conf");

/**
 * The server-level snippet (the internal auth location, the error mapping) as shipped: it asks
 * Keystream through the upstream `keystream`, which the test's `http { }` defines
 * (keystreamUpstream).
 */
export function authRequestSnippet(): string {
  const text = fs.readFileSync(path.join(DEPLOY_NGINX, "keystream-auth-request.conf"), "utf8");
  if (!text.includes("proxy_pass http://keystream/")) throw new Error("the snippet no longer asks the upstream keystream");
  return text;
}

/** The `upstream keystream` the snippets need, for Keystream at `address` (host:port). */
export function keystreamUpstream(address: string): string {
  return `upstream keystream { server ${address}; }`;
}
