/**
 * Strict parameter reading for every OAuth endpoint (authorize, logout helper, token, revoke,
 * introspect). RFC 6749 §3.1/§3.2: "parameters MUST NOT be included more than once", and every
 * OAuth parameter is a string. Fastify's query-string parser and @fastify/formbody (both
 * fast-querystring) turn a repeated name into an array, and a JSON body can carry any type, so a
 * value that is not a string means a repeated or malformed parameter: the request is refused as a
 * whole (400 `invalid_request`) instead of guessing which value was meant.
 */

/** No OAuth value comes close: codes and tokens are 64 characters, PKCE verifiers at most 128. */
export const MAX_PARAMETER_LENGTH = 4096;
/** More distinct parameters than any client sends (the desktop client sends 8). */
export const MAX_PARAMETERS = 64;

export type StrictParams =
  | { ok: true; params: Readonly<Record<string, string>> }
  | { ok: false; description: string; detail: string };

function refused(description: string, detail: string): StrictParams {
  return { ok: false, description, detail };
}

/** The parameters of a parsed query or body, all strings, or why the request is malformed. */
export function strictParams(source: unknown): StrictParams {
  const params: Record<string, string> = Object.create(null);
  if (source === undefined || source === null) return { ok: true, params };
  if (typeof source !== "object" || Array.isArray(source)) {
    return refused("malformed request parameters", `parameters of type ${Array.isArray(source) ? "array" : typeof source}`);
  }
  const entries = Object.entries(source);
  if (entries.length > MAX_PARAMETERS) return refused("too many parameters", `${entries.length} parameters`);
  for (const [name, value] of entries) {
    if (name.length > 128) return refused("malformed parameter name", "a parameter name longer than 128 characters");
    if (Array.isArray(value)) return refused(`parameter ${safeName(name)} is repeated`, `repeated parameter ${safeName(name)}`);
    if (typeof value !== "string") {
      return refused(`parameter ${safeName(name)} is not a string`, `parameter ${safeName(name)} of type ${typeof value}`);
    }
    if (value.length > MAX_PARAMETER_LENGTH) {
      return refused(`parameter ${safeName(name)} is too long`, `parameter ${safeName(name)} of ${value.length} characters`);
    }
    params[name] = value;
  }
  return { ok: true, params };
}

/** A parameter name as it may be echoed in an error description (printable ASCII word characters). */
function safeName(name: string): string {
  return /^[A-Za-z0-9_.-]{1,64}$/.test(name) ? name : "(unnamed)";
}
