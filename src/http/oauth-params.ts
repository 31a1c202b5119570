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
/** Names are short words; a longer one is not an OAuth parameter. */
export const MAX_PARAMETER_NAME_LENGTH = 128;

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
    if (name.length > MAX_PARAMETER_NAME_LENGTH)
      return refused("malformed parameter name", "a parameter name longer than 128 characters");
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

/** The part of an Ajv error the mapping reads (Fastify's `request.validationError.validation`). */
export interface ParameterSchemaError {
  keyword: string;
  instancePath: string;
  propertyName?: string;
}

/**
 * The parameters of a request validated by the OAuth parameter schema (`schemas/oauth.ts`, the same
 * rules as `strictParams`), or the schema's refusal in `strictParams`'s words: a refused request
 * answers the same `invalid_request` body whichever of the two checked it.
 */
export function parametersOf(source: unknown, validation: readonly ParameterSchemaError[] | undefined): StrictParams {
  if (validation === undefined || validation.length === 0) {
    const params: Record<string, string> = Object.create(null);
    if (source !== null && typeof source === "object") Object.assign(params, source);
    return { ok: true, params };
  }
  const error = validation.find((e) => e.keyword === "propertyNames") ?? validation[0]!;
  if (error.keyword === "propertyNames" || error.propertyName !== undefined) {
    return refused("malformed parameter name", `a parameter name longer than ${MAX_PARAMETER_NAME_LENGTH} characters`);
  }
  if (error.instancePath === "") {
    if (error.keyword === "maxProperties") {
      return refused("too many parameters", `${Object.keys(source as object).length} parameters`);
    }
    return refused("malformed request parameters", `parameters of type ${Array.isArray(source) ? "array" : typeof source}`);
  }
  // RFC 6901: the instance path of a top-level value is "/" + the escaped name.
  const name = error.instancePath.slice(1).replace(/~1/g, "/").replace(/~0/g, "~");
  const value = (source as Record<string, unknown>)[name];
  if (Array.isArray(value)) return refused(`parameter ${safeName(name)} is repeated`, `repeated parameter ${safeName(name)}`);
  if (typeof value !== "string") {
    return refused(`parameter ${safeName(name)} is not a string`, `parameter ${safeName(name)} of type ${typeof value}`);
  }
  return refused(`parameter ${safeName(name)} is too long`, `parameter ${safeName(name)} of ${value.length} characters`);
}
