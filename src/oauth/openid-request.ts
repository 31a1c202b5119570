import { checkClaimsRequest } from "./domain/requested-claims.js";
import { isOpenIdScope } from "./domain/scope.js";

/** OIDC Core §3.1.2.1 `prompt` values Keystream understands. */
const PROMPTS = new Set(["none", "login", "consent", "select_account"]);

/** The OpenID Connect parameters of an authorization request whose scope contains `openid`. */
export interface OpenIdRequest {
  scope: string;
  nonce: string | undefined;
  prompt: ReadonlySet<string>;
  /** Seconds; a login older than this must be repeated (§3.1.2.1). */
  maxAge: number | undefined;
  loginHint: string | undefined;
  /**
   * The sign-in scopes that disclose the claims the `claims` parameter asks for (§5.5,
   * domain/requested-claims.ts): the authorization grants them besides `scope`.
   */
  claimScopes: ReadonlySet<string>;
  /** The user the `claims` parameter's `id_token.sub.value` names (§5.5.1), else undefined. */
  subject: string | undefined;
}

/** OIDC Core §3.1.2.6 error codes (plus RFC 6749's `invalid_request`). */
export type OpenIdRequestError =
  | "invalid_request"
  | "request_not_supported"
  | "request_uri_not_supported"
  | "registration_not_supported";

export type OpenIdRequestCheck =
  /** `request` is null for a plain OAuth request (no `openid` scope): ownCloud's behaviour, unchanged. */
  { ok: true; request: OpenIdRequest | null } | { ok: false; error: OpenIdRequestError; description: string };

function stringOf(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  return typeof value === "string" ? value : undefined;
}

/** The `prompt` values (§3.1.2.1: space-separated, case-sensitive). */
export function promptValues(query: Record<string, unknown>): Set<string> {
  return new Set((stringOf(query, "prompt") ?? "").split(" ").filter((value) => value !== ""));
}

/**
 * OIDC Core §3.1.2.2 checks on the OpenID parameters, once the client and redirect URI are proven
 * (so a failure is answered at the redirect URI): request objects and registration are not
 * supported (§6, §7.2.1), `none` stands alone in `prompt`, unknown prompt values are refused (as
 * node-oidc-provider does), `max_age` is a non-negative integer, `claims` is a claims request
 * (§5.5). `claims_locales`, `acr_values`, `display`, `ui_locales` and `id_token_hint` need no
 * check here: `ui_locales` is read by the pages, the others are accepted and not acted on.
 */
export function checkOpenIdRequest(query: Record<string, unknown>): OpenIdRequestCheck {
  const scope = stringOf(query, "scope");
  if (!isOpenIdScope(scope)) return { ok: true, request: null };
  if (query.request !== undefined) {
    return { ok: false, error: "request_not_supported", description: "request objects are not supported" };
  }
  if (query.request_uri !== undefined) {
    return { ok: false, error: "request_uri_not_supported", description: "request_uri is not supported" };
  }
  if (query.registration !== undefined) {
    return { ok: false, error: "registration_not_supported", description: "the registration parameter is not supported" };
  }
  const prompt = promptValues(query);
  for (const value of prompt) {
    if (!PROMPTS.has(value)) return { ok: false, error: "invalid_request", description: `unsupported prompt value ${value}` };
  }
  if (prompt.has("none") && prompt.size > 1) {
    return { ok: false, error: "invalid_request", description: "prompt none must not be combined with other values" };
  }
  const maxAgeText = stringOf(query, "max_age");
  let maxAge: number | undefined;
  if (maxAgeText !== undefined) {
    if (!/^\d{1,10}$/.test(maxAgeText)) {
      return { ok: false, error: "invalid_request", description: "max_age must be a non-negative integer" };
    }
    maxAge = Number(maxAgeText);
  }
  const claims = checkClaimsRequest(stringOf(query, "claims"));
  if (!claims.ok) return { ok: false, error: "invalid_request", description: claims.description };
  const loginHint = stringOf(query, "login_hint");
  return {
    ok: true,
    request: {
      scope: scope as string,
      nonce: stringOf(query, "nonce"),
      prompt,
      maxAge,
      loginHint: loginHint === "" ? undefined : loginHint,
      claimScopes: claims.scopes,
      subject: claims.subject,
    },
  };
}
