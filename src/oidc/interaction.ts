import type { OpenIdRequest } from "../oauth/openid-request.js";

/** What the authorization endpoint does next with a valid request (OIDC Core §3.1.2.3, §3.1.2.4). */
export type Interaction =
  /** To the login form, even when a session exists (a fresh authentication). */
  | { kind: "login" }
  /** OIDC Core §3.1.2.6: answered at the redirect URI, no page shown (`prompt=none`). */
  | { kind: "error"; error: "login_required" | "consent_required"; description: string }
  | { kind: "consent" }
  /** Issue the code (or token) now. */
  | { kind: "grant" };

export interface InteractionInput {
  /** null: a plain OAuth request (no `openid`), decided as ownCloud does. */
  openid: OpenIdRequest | null;
  /** The logged-in session, with its user and when they logged in; undefined when nobody is logged in. */
  session: { uid: string; authenticatedAt: number } | undefined;
  now: number;
  /**
   * An administrator-trusted client, and the request asks for no scope beyond those the
   * administrator let it receive without consent (ownCloud's trusted clients skip consent).
   */
  trustedForScope: boolean;
  /** The user's live grants of this client cover the requested scope (consented before, not revoked since). */
  consentedBefore: boolean;
}

/**
 * The prompt and max_age rules, first match wins:
 * 1. no session → login, or with `prompt=none` `login_required` (§3.1.2.1);
 * 2. `prompt=login`, a login older than `max_age`, or another user logged in than the one the
 *    `claims` parameter's `id_token.sub.value` names (§5.5.1) → login again (with `prompt=none`:
 *    `login_required`);
 * 3. a trusted client skips consent for the scopes it is trusted with, unless `prompt=consent` asks
 *    for it; with `prompt=none` consent cannot be asked, so it must have been given before for the
 *    whole requested scope (§3.1.2.4), else `consent_required`: a silent request never widens a grant;
 * 4. otherwise the consent page (ownCloud shows it for every authorization of an untrusted client).
 */
export function decideInteraction(input: InteractionInput): Interaction {
  const prompt = input.openid?.prompt ?? new Set<string>();
  const silent = prompt.has("none");
  if (!input.session) {
    return silent ? { kind: "error", error: "login_required", description: "no user is logged in" } : { kind: "login" };
  }
  const maxAge = input.openid?.maxAge;
  const tooOld = maxAge !== undefined && input.now - input.session.authenticatedAt > maxAge;
  const subject = input.openid?.subject;
  const otherUser = subject !== undefined && subject !== input.session.uid;
  if (prompt.has("login") || tooOld || otherUser) {
    const description = otherUser ? "the requested subject is not the user logged in" : "the login is older than max_age";
    return silent ? { kind: "error", error: "login_required", description } : { kind: "login" };
  }
  if (silent) {
    return input.trustedForScope || input.consentedBefore
      ? { kind: "grant" }
      : { kind: "error", error: "consent_required", description: "the user has not authorized this client for this scope" };
  }
  if (input.trustedForScope && !prompt.has("consent")) return { kind: "grant" };
  return { kind: "consent" };
}

/**
 * The authorization request to come back to after the login a request asked for: `login` dropped
 * from `prompt` and `max_age` dropped, since the login just made satisfies both (otherwise the
 * request would send the user to the login form again, forever).
 */
export function queryAfterLogin(query: Record<string, string>): Record<string, string> {
  const next = { ...query };
  const prompt = (next.prompt ?? "").split(" ").filter((value) => value !== "" && value !== "login");
  if (prompt.length === 0) delete next.prompt;
  else next.prompt = prompt.join(" ");
  delete next.max_age;
  return next;
}
