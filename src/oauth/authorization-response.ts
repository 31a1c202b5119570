import { redirectTarget } from "./domain/redirect-uri.js";

/**
 * How an authorization response goes back to the client: in the redirect's query (RFC 6749
 * §4.1.2), in its fragment (§4.2.2), or as a form the browser posts to the redirect URI (OAuth 2.0
 * Form Post Response Mode §2). OAuth 2.0 Multiple Response Types §2.1 lets a request choose with
 * `response_mode`.
 */
export const RESPONSE_MODES = ["query", "fragment", "form_post"] as const;

export type ResponseMode = (typeof RESPONSE_MODES)[number];

function isResponseMode(value: string): value is ResponseMode {
  return (RESPONSE_MODES as readonly string[]).includes(value);
}

/**
 * An authorization response (success or error) for a validated redirect URI: where it goes, how,
 * and its parameters (absent values left out). The HTTP layer turns it into a 303 or, for
 * `form_post`, into the auto-submitting page: the one place that decides how it travels.
 */
export interface AuthorizationResponse {
  redirectUri: string;
  mode: ResponseMode;
  parameters: Record<string, string | undefined>;
}

/**
 * The response mode of a request: the default of its response type (Multiple Response Types §2.1:
 * `query` for `code`, `fragment` for `token`; an unknown response type is answered in the query,
 * RFC 6749 §4.1.2.1) unless `response_mode` names a supported one. `invalid` for any other value:
 * the error is then answered in the default mode (Multiple Response Types §2.1, `invalid_request`).
 */
export function responseModeFor(responseType: string, requested: string | undefined): { mode: ResponseMode; invalid: boolean } {
  const fallback: ResponseMode = responseType === "token" ? "fragment" : "query";
  if (requested === undefined || requested === "") return { mode: fallback, invalid: false };
  return isResponseMode(requested) ? { mode: requested, invalid: false } : { mode: fallback, invalid: true };
}

/** The redirect target of a `query` or `fragment` response (redirectTarget builds it). */
export function redirectLocation(response: AuthorizationResponse & { mode: "query" | "fragment" }): string {
  return redirectTarget(response.redirectUri, response.parameters, response.mode);
}

/** The parameters that are present, in order: the fields of a `form_post` page. */
export function presentParameters(response: AuthorizationResponse): Array<[string, string]> {
  return Object.entries(response.parameters).filter((entry): entry is [string, string] => entry[1] !== undefined);
}
