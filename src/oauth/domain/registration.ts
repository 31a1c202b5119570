import { MAX_CLIENT_NAME_LENGTH } from "./client-rules.js";
import { loopbackAnyPort } from "./redirect-uri.js";
import { SCOPE_NAMES, scopeValues } from "./scope.js";

/**
 * Dynamic client registration (RFC 7591) as Keystream allows it: the host setting
 * `oidc.dynamic_registration` is `off` (no registration endpoint) or `loopback`, where only
 * applications with loopback redirect URIs (RFC 8252 §7.3), programs on the user's own machine, may
 * register (OpenID Connect Dynamic Client Registration 1.0 §2 `application_type` native, or web). Pure rules: what a registration request asks for,
 * checked, or the RFC 7591 §3.2.2 error to answer.
 */
/** RFC 7591 §2 `token_endpoint_auth_method` values src/oauth/client-authentication.ts serves. */
export const REGISTRATION_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"] as const;
export type RegistrationAuthMethod = (typeof REGISTRATION_AUTH_METHODS)[number];

/** The grant types and response types a registered client gets (the code flow, refresh included). */
const GRANT_TYPES = ["authorization_code", "refresh_token"] as const;
const RESPONSE_TYPES = ["code"] as const;

/** Days without use after which the cleanup deletes a registered client with its grants. */
export const REGISTERED_CLIENT_UNUSED_DAYS = 90;
/** A registered client's `lastUsedAt` is written again only once this much older (one write a day at most). */
export const LAST_USED_RESOLUTION_SECONDS = 86_400;

/** The name of a client that sent no `client_name`. */
const UNNAMED = "Unnamed application";

/** RFC 7591 §3.2.2: the error codes of a refused registration. */
export type RegistrationErrorCode = "invalid_redirect_uri" | "invalid_client_metadata";

export interface RegistrationError {
  error: RegistrationErrorCode;
  description: string;
}

/** What a valid registration request asks for, as Keystream will register it. */
export interface CheckedRegistration {
  /** `client_name` as sent (control characters removed, trimmed), or UNNAMED. */
  clientName: string;
  /** The redirect URIs as sent (RFC 7591 §3.2.1 returns the registered metadata). */
  redirectUris: string[];
  /** What is stored: the one loopback target with the any-port wildcard (redirect-uri.ts). */
  storedRedirectUri: string;
  tokenEndpointAuthMethod: RegistrationAuthMethod;
  /** `application_type` as sent (absent: `web`, OIDC Registration §2); every one is served as native. */
  applicationType: "native" | "web";
  grantTypes: readonly string[];
  responseTypes: readonly string[];
  /**
   * RFC 7591 §2 `scope`: the values of the requested `scope` that Keystream grants, in the
   * catalogue's order; every scope when none was sent. Answered, not enforced: what a token gets is
   * decided at each authorization (consent), as for every client.
   */
  scope: string;
}

const refuse = (error: RegistrationErrorCode, description: string): RegistrationError => ({ error, description });

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
}

/** An optional array of strings: absent gives the default, anything else not an array of strings is refused. */
function listOf(metadata: Record<string, unknown>, name: string, fallback: readonly string[]): string[] | RegistrationError {
  const value = metadata[name];
  if (value === undefined) return [...fallback];
  return stringArray(value) ?? refuse("invalid_client_metadata", `${name} must be an array of strings`);
}

/**
 * Checks a registration request's metadata (RFC 7591 §2, §3.1) in `loopback` mode:
 * 1. the body is a JSON object;
 * 2. `redirect_uris`: a non-empty array, each an `http` URI on a loopback host (RFC 8252 §7.3), any
 *    port, all naming the same host, path and query, since a Keystream client has one redirect
 *    target (stored with the any-port wildcard) → `invalid_redirect_uri`;
 * 3. `application_type` is `native` or `web` (absent means `web`, OIDC Registration §2), taken as
 *    native either way since every redirect URI is loopback → `invalid_client_metadata` otherwise;
 * 4. `token_endpoint_auth_method` one of REGISTRATION_AUTH_METHODS (absent: `client_secret_basic`,
 *    RFC 7591 §2); `grant_types` within authorization_code and refresh_token and naming
 *    authorization_code; `response_types` only `code` (§2.1: the two must agree);
 * 5. `client_name` a string when present; `scope` a string naming at least one scope Keystream
 *    grants when present (clients such as oidc-agent check the answered `scope`).
 * Metadata Keystream does not use (logo_uri, contacts, scope, …) is ignored, as §2 says.
 */
export function checkRegistration(metadata: unknown): CheckedRegistration | RegistrationError {
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    return refuse("invalid_client_metadata", "the request body must be a JSON object of client metadata");
  }
  const fields = metadata as Record<string, unknown>;
  const redirectUris = stringArray(fields.redirect_uris);
  if (!redirectUris || redirectUris.length === 0) {
    return refuse("invalid_redirect_uri", "redirect_uris must be a non-empty array of loopback redirect URIs");
  }
  const targets = new Set<string>();
  for (const uri of redirectUris) {
    const target = loopbackAnyPort(uri);
    if (target === undefined) {
      return refuse(
        "invalid_redirect_uri",
        `${uri} is not a loopback redirect URI (http://127.0.0.1, http://[::1] or http://localhost, any port)`,
      );
    }
    targets.add(target);
  }
  const [storedRedirectUri] = targets;
  if (targets.size !== 1 || storedRedirectUri === undefined) {
    return refuse("invalid_redirect_uri", "the redirect URIs must differ only in their port");
  }
  // Every redirect URI is loopback by now, so the client runs on the user's own machine whatever it
  // calls itself: a `web` application (or one that names no type) is accepted as a native one.
  // oidc-agent registers as `web` first and retries as `native` only on a non-RFC 7591 error
  // (indigo-dc/oidc-agent `src/oidc-agent/oidc/flows/registration.c` dynamicRegistration). OIDC
  // Registration §2 forbids localhost only to web clients of the implicit grant, which a registered
  // client never gets.
  if (fields.application_type !== undefined && fields.application_type !== "native" && fields.application_type !== "web") {
    return refuse("invalid_client_metadata", "application_type must be native or web");
  }
  const method = fields.token_endpoint_auth_method ?? "client_secret_basic";
  if (!(REGISTRATION_AUTH_METHODS as readonly unknown[]).includes(method)) {
    return refuse("invalid_client_metadata", `token_endpoint_auth_method must be one of ${REGISTRATION_AUTH_METHODS.join(", ")}`);
  }
  const grantTypes = listOf(fields, "grant_types", ["authorization_code"]);
  if (!Array.isArray(grantTypes)) return grantTypes;
  if (
    !grantTypes.includes("authorization_code") ||
    grantTypes.some((type) => !(GRANT_TYPES as readonly string[]).includes(type))
  ) {
    return refuse("invalid_client_metadata", "grant_types must name authorization_code, and may name refresh_token");
  }
  const responseTypes = listOf(fields, "response_types", ["code"]);
  if (!Array.isArray(responseTypes)) return responseTypes;
  if (responseTypes.length === 0 || responseTypes.some((type) => type !== "code")) {
    return refuse("invalid_client_metadata", 'response_types must be ["code"]');
  }
  if (fields.client_name !== undefined && typeof fields.client_name !== "string") {
    return refuse("invalid_client_metadata", "client_name must be a string");
  }
  if (fields.scope !== undefined && typeof fields.scope !== "string") {
    return refuse("invalid_client_metadata", "scope must be a string of space-separated scopes");
  }
  const requested = scopeValues(fields.scope);
  const scope = SCOPE_NAMES.filter((name) => fields.scope === undefined || requested.has(name)).join(" ");
  if (scope === "") return refuse("invalid_client_metadata", "scope names no scope this server grants");
  return {
    clientName: cleanName(fields.client_name),
    scope,
    redirectUris,
    storedRedirectUri,
    tokenEndpointAuthMethod: method as RegistrationAuthMethod,
    applicationType: fields.application_type === "native" ? "native" : "web",
    grantTypes: GRANT_TYPES,
    responseTypes: RESPONSE_TYPES,
  };
}

function cleanName(name: string | undefined): string {
  const cleaned = (name ?? "")
    .replace(/\p{Cc}/gu, "")
    .replace(/\s+/g, " ")
    .trim();
  return cleaned === "" ? UNNAMED : cleaned;
}

/**
 * The stored name: client names are unique (the key of `oauth2:modify-client`), and many copies of
 * one application register under the same `client_name`, so the start of the new client id is
 * appended, the whole within MAX_CLIENT_NAME_LENGTH.
 */
export function registeredClientName(clientName: string, clientId: string): string {
  const suffix = ` (${clientId.slice(0, 8)})`;
  const characters = [...clientName];
  while (characters.join("").length > MAX_CLIENT_NAME_LENGTH - suffix.length) characters.pop();
  return `${characters.join("").trimEnd()}${suffix}`;
}
