import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The nginx forward-authentication snippets operators install (deploy/nginx/, docs/deployment.md
 * "Forward authentication"), for tests that put nginx in front of a file server: read from the
 * files themselves, so the documentation and the tests cannot drift apart.
 */
const DEPLOY_NGINX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../deploy/nginx");

/** Keystream's address as the snippet writes it; tests replace it with theirs. */
export const SNIPPET_KEYSTREAM_ADDRESS = "127.0.0.1:8080";

/** To be included inside a location to protect, as it is. */
export const PROTECT_SNIPPET = path.join(DEPLOY_NGINX, "keystream-protect.conf");

/** The server-level snippet (the internal auth location, the error mapping) for Keystream at `address` (host:port). */
export function authRequestSnippet(address: string): string {
  const text = fs.readFileSync(path.join(DEPLOY_NGINX, "keystream-auth-request.conf"), "utf8");
  if (!text.includes(`http://${SNIPPET_KEYSTREAM_ADDRESS}/`))
    throw new Error(`the snippet no longer names ${SNIPPET_KEYSTREAM_ADDRESS}`);
  return text.replaceAll(`http://${SNIPPET_KEYSTREAM_ADDRESS}/`, `http://${address}/`);
}
