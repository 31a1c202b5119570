import type { Authenticator } from "../accounts/authentication.js";
import type { UserDirectory } from "../accounts/users.js";
import type { AuditTrail } from "../audit/recorder.js";
import type { Clock } from "../clock.js";
import type { HostSettings } from "../config/host-settings.js";
import type { SecretSealer } from "../crypto/secret-box.js";
import type { JobScheduler } from "../jobs/scheduler.js";
import { DEFAULT_CLIENTS } from "../oauth/domain/default-clients.js";
import type { GroupLists } from "../oauth/ports.js";
import { type OAuthEvents, OAuthService } from "../oauth/service.js";
import type { Db, Dialect } from "../storage/database.js";
import { KyselyClientStore } from "../storage/oauth-client-store.js";
import { SqlDeviceAuthorizationStore } from "../storage/oauth-device-store.js";
import { KyselyGrantStore } from "../storage/oauth-grant-store.js";
import type { SqlThrottleStore } from "../storage/throttle-store.js";
import { IssueSettlement, SqlTokenGate } from "../storage/token-gate.js";

/** The key file sealing client secrets (and what else is sealed at rest), created in the data directory on first use. */
export const CLIENT_SECRET_KEY_FILE = "oauth2-client-secrets.key";

export interface OAuthSetup {
  db: Db;
  dialect: Dialect;
  clock: Clock;
  settings: HostSettings;
  log: ConstructorParameters<typeof OAuthService>[0]["log"];
  users: UserDirectory;
  jobs: JobScheduler;
  authenticator: Authenticator;
  /** The client-secret box: seals client secrets and the refresh grace-window pairs. */
  sealer: SecretSealer;
  /** The token endpoint's throttle store, under its gate (storage/token-gate.ts). */
  tokenThrottle: SqlThrottleStore;
  events?: OAuthEvents;
  audit?: AuditTrail;
  /** Resolves a client's allowed-groups list (src/groups). */
  groups?: GroupLists;
}

/**
 * Builds the OAuth service on SQL storage, plugs its access tokens into the authentication chain
 * (Bearer) and registers the `oauth2:cleanup` job (interval: host setting `oauth2.cleanup_interval`)
 * and the minutely `oauth2:grace-purge`.
 */
export function createOAuthService(setup: OAuthSetup): OAuthService {
  const clients = new KyselyClientStore(setup.db, setup.sealer, DEFAULT_CLIENTS, setup.log);
  const oauth = new OAuthService({
    clients,
    gate: new SqlTokenGate(setup.db, setup.dialect, clients, setup.tokenThrottle, setup.clock),
    grants: new KyselyGrantStore(setup.db, setup.dialect, new IssueSettlement(setup.tokenThrottle)),
    devices: new SqlDeviceAuthorizationStore(setup.db),
    users: setup.users,
    clock: setup.clock,
    log: setup.log,
    refreshTokenLifetime: () => setup.settings.get("oauth2.refresh_token_lifetime"),
    refreshReuseGrace: () => setup.settings.get("oauth2.refresh_reuse_grace"),
    sealer: setup.sealer,
    events: setup.events,
    audit: setup.audit,
    groups: setup.groups,
    newClientsAllowedGroups: () => setup.settings.get("oauth2.new_clients_allowed_groups"),
  });
  setup.authenticator.useBearerResolver(oauth);
  setup.jobs.register({
    name: "oauth2:cleanup",
    intervalSeconds: () => setup.settings.get("oauth2.cleanup_interval"),
    run: async () => {
      await oauth.cleanup();
    },
  });
  // Grace-window pairs hold (sealed) live tokens: forget them as soon as their window closes.
  setup.jobs.register({
    name: "oauth2:grace-purge",
    intervalSeconds: () => 60,
    run: async () => {
      await oauth.purgeGracePairs();
    },
  });
  return oauth;
}
