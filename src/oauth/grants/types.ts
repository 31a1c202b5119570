import type { OAuthError } from "../domain/errors.js";
import type { GrantStore, OAuthClient } from "../ports.js";
import type { TokenResponse } from "../tokens.js";

/** What a grant needs, and nothing more (fosite's handler fields). */
export interface GrantDeps {
  grants: GrantStore;
  users: { find(uid: string): Promise<{ enabled: boolean } | undefined> };
  now: number;
  refreshTokenLifetime: number;
  log: { info(obj: object, msg: string): void };
}

export interface GrantInput {
  client: OAuthClient;
  /** Only the parameters the grant declares (the endpoint drops the rest). */
  params: Record<string, string | undefined>;
  userAgent: string | undefined;
}

/** One grant type of the token endpoint (node-oidc-provider's grant module). */
export interface Grant {
  grantType: string;
  parameters: ReadonlySet<string>;
  handle(deps: GrantDeps, input: GrantInput): Promise<TokenResponse | OAuthError>;
}
