import { redirectTarget } from "../oauth/domain/redirect-uri.js";

/** OpenID Connect RP-Initiated Logout 1.0 §2: the parameters Keystream reads. */
export interface EndSessionParams {
  id_token_hint?: string;
  client_id?: string;
  post_logout_redirect_uri?: string;
  state?: string;
}

export type EndSessionCheck =
  /** Answered with an error page, never a redirect (nothing proves where to send the browser). */
  | { kind: "invalid"; detail: string }
  | {
      kind: "valid";
      /** Where to send the browser after logout (registered URI + `state`); undefined: Keystream's page. */
      redirect: string | undefined;
      /** The `sub` of a verified `id_token_hint`: the user the relying party asks to log out. */
      hintedSubject: string | undefined;
      clientName: string | undefined;
    };

/** What the rules need to know, looked up by the service. */
export interface EndSessionFacts {
  /** The verified claims of `id_token_hint`; "invalid" when it was given and does not verify. */
  hint: Record<string, unknown> | "invalid" | undefined;
  issuer: string;
  findClient(clientId: string): Promise<{ name: string; postLogoutRedirectUri?: string | null } | undefined>;
}

function audienceOf(claims: Record<string, unknown>): string | undefined {
  const aud = claims.aud;
  if (typeof aud === "string") return aud;
  return Array.isArray(aud) && typeof aud[0] === "string" ? aud[0] : undefined;
}

/**
 * RP-Initiated Logout 1.0 §2–§3, first failure wins:
 * 1. an `id_token_hint` must be an ID token Keystream signed (published keys; an expired one is
 *    accepted, §2) for this issuer;
 * 2. the client is the hint's audience, or `client_id`; when both are given they must agree;
 * 3. `post_logout_redirect_uri` is honoured only when it is exactly the URI registered for that
 *    client (`post-logout-redirect-url`), so logout is never an open redirect; `state` goes along.
 */
export async function checkEndSession(params: EndSessionParams, facts: EndSessionFacts): Promise<EndSessionCheck> {
  if (facts.hint === "invalid") return { kind: "invalid", detail: "id_token_hint is not an ID token issued here" };
  if (facts.hint && facts.hint.iss !== facts.issuer) return { kind: "invalid", detail: "id_token_hint is for another issuer" };
  const hintedClient = facts.hint ? audienceOf(facts.hint) : undefined;
  if (params.client_id !== undefined && hintedClient !== undefined && params.client_id !== hintedClient) {
    return { kind: "invalid", detail: "client_id does not match the audience of id_token_hint" };
  }
  const clientId = params.client_id ?? hintedClient;
  const client = clientId === undefined ? undefined : await facts.findClient(clientId);
  if (clientId !== undefined && !client) return { kind: "invalid", detail: "unknown client" };
  const hintedSubject = typeof facts.hint?.sub === "string" ? facts.hint.sub : undefined;
  const target = params.post_logout_redirect_uri;
  if (target === undefined) return { kind: "valid", redirect: undefined, hintedSubject, clientName: client?.name };
  if (!client) return { kind: "invalid", detail: "post_logout_redirect_uri needs id_token_hint or client_id" };
  if (!client.postLogoutRedirectUri || client.postLogoutRedirectUri !== target) {
    return { kind: "invalid", detail: "post_logout_redirect_uri is not registered for this client" };
  }
  return {
    kind: "valid",
    redirect: params.state === undefined ? target : redirectTarget(target, { state: params.state }),
    hintedSubject,
    clientName: client.name,
  };
}
