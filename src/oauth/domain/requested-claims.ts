/**
 * The `claims` request parameter (OpenID Connect Core 1.0 §5.5): a JSON object whose `userinfo`
 * and `id_token` members each name claims the client wants, each with `null` or an object
 * (`essential`, `value`, `values`, §5.5.1).
 */

/**
 * The user claims Keystream has, each with the sign-in scope that discloses it (§5.4; `sub` is
 * always disclosed). The one list src/oidc/claims.ts reads its user claims from.
 */
export const USER_CLAIM_SCOPES = {
  sub: null,
  name: "profile",
  preferred_username: "profile",
  picture: "profile",
  email: "email",
  email_verified: "email",
  groups: "groups",
} as const satisfies Record<string, string | null>;

export type UserClaimName = keyof typeof USER_CLAIM_SCOPES;

export type ClaimsRequestCheck =
  /**
   * `subject`: the `sub` value the `id_token` member asks for (§5.5.1: a positive answer only when
   * that user is the one logged in); undefined when none is asked for.
   */
  { ok: true; scopes: Set<string>; subject: string | undefined } | { ok: false; description: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Reads a `claims` parameter: not JSON, not an object, a `userinfo` or `id_token` member that is not
 * an object, or a claim whose request is neither null nor an object → refused (§5.5, answered as
 * `invalid_request`). Otherwise the sign-in scopes that disclose the claims Keystream has among
 * those requested (in either member, since Keystream's ID token from the code exchange carries the
 * same user claims as UserInfo). Claims Keystream does not have are ignored (§5.5: "the OP MAY
 * choose not to return" them), and so are `essential`, `value` and `values`, including those of
 * `acr` (§5.5.1.1: an Essential `acr` the OP cannot satisfy is not an error).
 */
export function checkClaimsRequest(text: string | undefined): ClaimsRequestCheck {
  const scopes = new Set<string>();
  if (text === undefined || text === "") return { ok: true, scopes, subject: undefined };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, description: "the claims parameter is not valid JSON" };
  }
  if (!isPlainObject(parsed)) return { ok: false, description: "the claims parameter must be a JSON object" };
  for (const member of ["userinfo", "id_token"] as const) {
    const requested = parsed[member];
    if (requested === undefined) continue;
    if (!isPlainObject(requested)) return { ok: false, description: `claims.${member} must be a JSON object` };
    for (const [name, request] of Object.entries(requested)) {
      if (request !== null && !isPlainObject(request)) {
        return { ok: false, description: `claims.${member}.${name} must be null or a JSON object` };
      }
      const scope = Object.hasOwn(USER_CLAIM_SCOPES, name) ? USER_CLAIM_SCOPES[name as UserClaimName] : null;
      if (scope !== null) scopes.add(scope);
    }
  }
  const idToken = parsed.id_token as Record<string, unknown> | undefined;
  const sub = idToken?.sub as Record<string, unknown> | null | undefined;
  return { ok: true, scopes, subject: typeof sub?.value === "string" ? sub.value : undefined };
}
