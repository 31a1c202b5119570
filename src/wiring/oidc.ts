import { type Avatars, avatarUrlFor } from "../accounts/avatars.js";
import type { UserDirectory } from "../accounts/users.js";
import type { Clock } from "../clock.js";
import type { HostSettings } from "../config/host-settings.js";
import type { SecretSealer } from "../crypto/secret-box.js";
import type { ValueSigner } from "../crypto/value-signer.js";
import type { Groups } from "../groups/service.js";
import type { JobScheduler } from "../jobs/scheduler.js";
import type { OAuthService } from "../oauth/service.js";
import { BackchannelLogout } from "../oidc/backchannel-logout.js";
import { OpenIdProvider } from "../oidc/provider.js";
import { SigningKeys } from "../oidc/signing-keys.js";
import type { Db } from "../storage/database.js";
import { KyselySigningKeyStore } from "../storage/oidc-key-store.js";
import { SqlLogoutQueueStore } from "../storage/oidc-logout-queue-store.js";

export interface OpenIdSetup {
  db: Db;
  clock: Clock;
  settings: HostSettings;
  users: UserDirectory;
  avatars: Avatars;
  oauth: OAuthService;
  /** The client-secret box (one key file): seals the private signing keys too. */
  sealer: SecretSealer;
  /** HMAC of a session's id hash: its `sid` (a purpose-derived key of the same key file). */
  sidSigner: ValueSigner;
  jobs: JobScheduler;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** The `groups` claim's source. */
  groups?: Groups;
}

/** Builds the OpenID Provider on the OAuth service and plugs its ID tokens into the token endpoint. */
export function createOpenIdProvider(setup: OpenIdSetup): OpenIdProvider {
  const keys = new SigningKeys(new KyselySigningKeyStore(setup.db), setup.sealer, setup.clock, () =>
    setup.settings.get("oidc.key_grace_period"),
  );
  const backchannel = new BackchannelLogout({
    store: new SqlLogoutQueueStore(setup.db),
    keys,
    clock: setup.clock,
    sidSigner: setup.sidSigner,
    log: setup.log,
  });
  // The queue's retries (and a node's sends that a restart cut short); any node may run it, each
  // delivery claimed by one at a time.
  setup.jobs.register({
    name: "oidc:backchannel-logout",
    intervalSeconds: () => 30,
    run: async () => {
      await backchannel.deliverDue();
    },
  });
  setup.jobs.register({
    name: "oidc:ended-session-records",
    intervalSeconds: () => 86_400,
    run: async () => {
      await backchannel.purgeEndedSessionRecords();
    },
  });
  const provider = new OpenIdProvider({
    backchannel,
    keys,
    clock: setup.clock,
    users: setup.users,
    pictureUrl: async (baseUrl, uid) => {
      const extension = await setup.avatars.extensionOf(uid);
      return extension === undefined ? undefined : avatarUrlFor(baseUrl, uid, extension);
    },
    clients: { findByClientId: (clientId) => setup.oauth.findClient(clientId) },
    groupsOf: setup.groups ? (uid) => (setup.groups as Groups).groupsOf(uid) : undefined,
  });
  setup.oauth.useIdTokens(provider);
  return provider;
}
