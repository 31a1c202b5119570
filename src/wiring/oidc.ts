import { type Avatars, avatarUrlFor } from "../accounts/avatars.js";
import type { UserDirectory } from "../accounts/users.js";
import type { Groups } from "../groups/service.js";
import type { Job } from "../jobs/scheduler.js";
import type { ClientStore } from "../oauth/ports.js";
import { BackchannelLogout } from "../oidc/backchannel-logout.js";
import { OpenIdProvider } from "../oidc/provider.js";
import { SigningKeys } from "../oidc/signing-keys.js";
import { KyselySigningKeyStore } from "../storage/stores/oidc/oidc-key-store.js";
import { SqlLogoutQueueStore } from "../storage/stores/oidc/oidc-logout-queue-store.js";
import type { Foundation } from "./foundation.js";

export interface OidcLogoutModule {
  keys: SigningKeys;
  /** Told when sessions end (accounts): the logout tokens to send. */
  backchannel: BackchannelLogout;
  jobs: Job[];
}

/**
 * The signing keys (private keys sealed with the key file's box, docs/decisions.md) and
 * back-channel logout, which the accounts are built with: they need nothing of the accounts.
 */
export function wireOidcLogout({
  db,
  clock,
  settings,
  sealer,
  signer,
  log,
}: Pick<Foundation, "db" | "clock" | "settings" | "sealer" | "signer" | "log">): OidcLogoutModule {
  const keys = new SigningKeys(new KyselySigningKeyStore(db), sealer, clock, () => settings.get("oidc.key_grace_period"));
  const backchannel = new BackchannelLogout({
    store: new SqlLogoutQueueStore(db),
    keys,
    clock,
    // HMAC of a session's id hash: its `sid` (a purpose-derived key of the same key file).
    sidSigner: signer("oidc session id"),
    log,
  });
  // The queue's retries (and a node's sends that a restart cut short); any node may run it, each
  // delivery claimed by one at a time.
  const deliver: Job = {
    name: "oidc:backchannel-logout",
    intervalSeconds: () => 30,
    run: async () => {
      await backchannel.deliverDue();
    },
  };
  const purgeEnded: Job = {
    name: "oidc:ended-session-records",
    intervalSeconds: () => 86_400,
    run: async () => {
      await backchannel.purgeEndedSessionRecords();
    },
  };
  return { keys, backchannel, jobs: [deliver, purgeEnded] };
}

export interface OpenIdDependencies {
  logout: OidcLogoutModule;
  users: UserDirectory;
  avatars: Avatars;
  /** The registered OAuth clients (their names, their post-logout redirect URIs). */
  clients: Pick<ClientStore, "findByClientId">;
  /** The `groups` claim's source. */
  groups: Groups;
}

/** The OpenID Provider: the ID tokens the OAuth service's token endpoint mints, UserInfo's claims, logout's rules. */
export function wireOpenIdProvider({ clock }: Pick<Foundation, "clock">, deps: OpenIdDependencies): OpenIdProvider {
  return new OpenIdProvider({
    backchannel: deps.logout.backchannel,
    keys: deps.logout.keys,
    clock,
    users: deps.users,
    pictureUrl: async (baseUrl, uid) => {
      const extension = await deps.avatars.extensionOf(uid);
      return extension === undefined ? undefined : avatarUrlFor(baseUrl, uid, extension);
    },
    clients: deps.clients,
    groupsOf: (uid) => deps.groups.groupsOf(uid),
  });
}
