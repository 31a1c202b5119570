import type { MessageKey } from "../../i18n/index.js";

/**
 * The scopes Keystream grants (RFC 6749 §3.3), one catalogue for every place that reads them: the
 * authorization endpoint (what a request is granted), the consent page (one line per scope, in plain
 * words), the route guards and forward authentication (what a token may do), discovery
 * (`scopes_supported`), the token response and introspection. docs/security.md "Scopes" shows the
 * same table; a test keeps the two equal.
 *
 * - `account`: full access to the account, what ownCloud and Nextcloud give every token (their
 *   clients send no `scope`). A request without `scope` is granted it.
 * - API scopes open one surface each: `files` the file server behind forward authentication,
 *   `activity:read` and `activity:write` the activity API.
 * - Sign-in scopes (OpenID Connect Core §5.4, §11) identify the user to the application: with them
 *   alone a token is accepted by UserInfo and nothing else.
 */

/** A key of the consent page's scope lines in the pages catalogue. */
type ConsentLine = Extract<MessageKey, `pages:consent.scope.${string}`>;

/** Full access to the account (the scope of every ownCloud and Nextcloud client's token). */
export const ACCOUNT_SCOPE = "account";

export type ScopeKind = "account" | "api" | "sign-in";

export interface ScopeDefinition {
  readonly name: string;
  readonly kind: ScopeKind;
  /**
   * The key of the consent page's line for it; null when the scope adds nothing
   * the user must be told (`offline_access`: every code grant gets a refresh token, ownCloud's rule,
   * and the page says how long access lasts).
   */
  readonly consentLine: ConsentLine | null;
}

export const SCOPES = [
  { name: ACCOUNT_SCOPE, kind: "account", consentLine: "pages:consent.scope.account" },
  { name: "files", kind: "api", consentLine: "pages:consent.scope.files" },
  { name: "activity:read", kind: "api", consentLine: "pages:consent.scope.activityRead" },
  { name: "activity:write", kind: "api", consentLine: "pages:consent.scope.activityWrite" },
  { name: "openid", kind: "sign-in", consentLine: "pages:consent.scope.openid" },
  { name: "profile", kind: "sign-in", consentLine: "pages:consent.scope.profile" },
  { name: "email", kind: "sign-in", consentLine: "pages:consent.scope.email" },
  { name: "groups", kind: "sign-in", consentLine: "pages:consent.scope.groups" },
  { name: "offline_access", kind: "sign-in", consentLine: null },
] as const satisfies readonly ScopeDefinition[];

export type ScopeName = (typeof SCOPES)[number]["name"];

/** What a route or a site behind forward authentication requires of a token. */
export type RequiredScope = Exclude<ScopeName, "offline_access">;

const BY_NAME: ReadonlyMap<string, ScopeDefinition> = new Map(SCOPES.map((scope) => [scope.name, scope]));

export const SCOPE_NAMES: readonly ScopeName[] = SCOPES.map((scope) => scope.name);

export const REQUIRED_SCOPES: readonly RequiredScope[] = SCOPE_NAMES.filter(
  (name): name is RequiredScope => name !== "offline_access",
);

export function isScopeName(value: string): value is ScopeName {
  return BY_NAME.has(value);
}

/** The space-separated values of a `scope` parameter (RFC 6749 §3.3). */
export function scopeValues(scope: string | null | undefined): Set<string> {
  return new Set((scope ?? "").split(" ").filter((value) => value !== ""));
}

/** An OpenID Connect request or grant: its scope contains `openid` (OIDC Core §3.1.2.1). */
export function isOpenIdScope(scope: string | null | undefined): boolean {
  return scopeValues(scope).has("openid");
}

/**
 * What an authorization request is granted for its `scope` parameter: absent or empty, the account
 * scope (RFC 6749 §3.3 lets the server use a default; ownCloud's and Nextcloud's clients send
 * none). Otherwise the values Keystream knows, in the catalogue's order; unknown values are ignored,
 * as §3.3 allows ("fully or partially ignore"), and the token response says what was granted. A
 * client with account access (an ownCloud or Nextcloud app) gets the account scope besides.
 * Undefined when no value is known: `invalid_scope` (§4.1.2.1).
 */
export function grantedScope(requested: string | undefined, accountAccess: boolean): string | undefined {
  const values = scopeValues(requested);
  if (values.size === 0 || accountAccess) values.add(ACCOUNT_SCOPE);
  const known = SCOPE_NAMES.filter((name) => values.has(name));
  return known.length === 0 ? undefined : known.join(" ");
}

/**
 * A granted scope widened by more of the catalogue's scopes (the sign-in scopes a `claims` request
 * needs, OIDC Core §5.5), in the catalogue's order.
 */
export function widenedScope(granted: string, more: Iterable<string>): string {
  const values = scopeValues(granted);
  for (const value of more) values.add(value);
  return SCOPE_NAMES.filter((name) => values.has(name)).join(" ");
}

/**
 * A token whose grant has scope `granted` may use what requires `required`: the account scope
 * allows everything, any other scope only itself. A grant recorded without a scope is an account
 * grant (ownCloud's clients send none).
 */
export function scopeAllows(granted: string | null | undefined, required: RequiredScope): boolean {
  const values = scopeValues(granted ?? ACCOUNT_SCOPE);
  return values.has(ACCOUNT_SCOPE) || values.has(required);
}

/**
 * Consent to `consented` covers a request for `requested` (OIDC Core §3.1.2.4: `prompt=none` may
 * grant only what the user agreed to before): each requested value was consented to, an API scope
 * also by consent to the account scope, which includes it.
 */
export function consentCovers(consented: ReadonlySet<string>, requested: string): boolean {
  for (const value of scopeValues(requested)) {
    if (consented.has(value)) continue;
    if (consented.has(ACCOUNT_SCOPE) && BY_NAME.get(value)?.kind === "api") continue;
    return false;
  }
  return true;
}

/** The catalogue's entries for a granted scope, in the catalogue's order (the consent page's lines). */
export function scopeDefinitions(granted: string): ScopeDefinition[] {
  const values = scopeValues(granted);
  return SCOPES.filter((scope) => values.has(scope.name));
}

/**
 * The scopes an administrator lets a trusted client receive without the consent page, as stored:
 * null means every scope (ownCloud's trusted clients skip consent altogether).
 */
export function trustCovers(trustedScopes: string | null | undefined, requested: string): boolean {
  if (trustedScopes === null || trustedScopes === undefined) return true;
  return consentCovers(scopeValues(trustedScopes), requested);
}
