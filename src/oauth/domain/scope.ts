/** The space-separated values of a `scope` parameter (RFC 6749 §3.3). */
export function scopeValues(scope: string | null | undefined): Set<string> {
  return new Set((scope ?? "").split(" ").filter((value) => value !== ""));
}

/** An OpenID Connect request or grant: its scope contains `openid` (OIDC Core §3.1.2.1). */
export function isOpenIdScope(scope: string | null | undefined): boolean {
  return scopeValues(scope).has("openid");
}
