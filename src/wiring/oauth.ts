import type { UserDirectory } from "../accounts/users.js";
import type { Job } from "../jobs/scheduler.js";
import { DEFAULT_CLIENTS } from "../oauth/domain/default-clients.js";
import type { GroupLists, IdTokenMinter } from "../oauth/ports.js";
import { type OAuthEvents, OAuthService } from "../oauth/service.js";
import { KyselyClientStore } from "../storage/stores/oauth/oauth-client-store.js";
import { SqlDeviceAuthorizationStore } from "../storage/stores/oauth/oauth-device-store.js";
import { KyselyGrantStore } from "../storage/stores/oauth/oauth-grant-store.js";
import { IssueSettlement, SqlTokenGate } from "../storage/stores/oauth/token-gate.js";
import type { SqlThrottleStore } from "../storage/stores/security/throttle-store.js";
import type { Foundation, Module } from "./foundation.js";

/** The registered clients (and the default ones) on SQL storage, their secrets sealed with the key file's box. */
export function wireOAuthClients({ db, sealer, log }: Pick<Foundation, "db" | "sealer" | "log">): KyselyClientStore {
  return new KyselyClientStore(db, sealer, DEFAULT_CLIENTS, log);
}

export interface OAuthDependencies {
  clients: KyselyClientStore;
  users: UserDirectory;
  /** The token endpoint's throttle store, under its gate (storage/stores/oauth/token-gate.ts). */
  tokenThrottle: SqlThrottleStore;
  /** OpenID Connect's ID tokens (src/oidc). */
  idTokens: IdTokenMinter;
  /** Told of grants authorized and revoked. */
  events: OAuthEvents;
  /** Resolves a client's allowed-groups list (src/groups). */
  groups: GroupLists;
}

/**
 * The OAuth service on SQL storage, with the `oauth2:cleanup` job (interval: host setting
 * `oauth2.cleanup_interval`) and the minutely `oauth2:grace-purge`.
 */
export function wireOAuth(
  {
    storage,
    clock,
    settings,
    log,
    sealer,
    audit,
  }: Pick<Foundation, "storage" | "clock" | "settings" | "log" | "sealer" | "audit">,
  deps: OAuthDependencies,
): Module<{ oauth: OAuthService }> {
  const { db, dialect } = storage;
  const oauth = new OAuthService({
    clients: deps.clients,
    gate: new SqlTokenGate(db, dialect, deps.clients, deps.tokenThrottle, clock),
    grants: new KyselyGrantStore(db, dialect, new IssueSettlement(deps.tokenThrottle)),
    devices: new SqlDeviceAuthorizationStore(db),
    users: deps.users,
    clock,
    log,
    refreshTokenLifetime: () => settings.get("oauth2.refresh_token_lifetime"),
    refreshReuseGrace: () => settings.get("oauth2.refresh_reuse_grace"),
    sealer,
    events: deps.events,
    idTokens: deps.idTokens,
    audit,
    groups: deps.groups,
    newClientsAllowedGroups: () => settings.get("oauth2.new_clients_allowed_groups"),
  });
  const cleanup: Job = {
    name: "oauth2:cleanup",
    intervalSeconds: () => settings.get("oauth2.cleanup_interval"),
    run: async () => {
      await oauth.cleanup();
    },
  };
  // Grace-window pairs hold (sealed) live tokens: forget them as soon as their window closes.
  const gracePurge: Job = {
    name: "oauth2:grace-purge",
    intervalSeconds: () => 60,
    run: async () => {
      await oauth.purgeGracePairs();
    },
  };
  return { services: { oauth }, jobs: [cleanup, gracePurge] };
}
