/** A POST to one of the client-facing endpoints (token, revoke, introspect), as the HTTP layer hands it over. */
export interface TokenRequest {
  /** The form body; the HTTP layer has refused repeated and non-string parameters (http/oauth-params.ts). */
  body: Record<string, unknown>;
  authorization: string | undefined;
  userAgent: string | undefined;
}

export function stringParam(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === "string" ? value : undefined;
}
