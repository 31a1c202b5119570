import { type Avatars, avatarUrlFor } from "../accounts/avatars.js";
import type { UserDirectory } from "../accounts/users.js";
import type { Clock } from "../clock.js";
import type { HostSettings } from "../config/host-settings.js";
import type { SecretSealer } from "../crypto/secret-box.js";
import type { OAuthService } from "../oauth/service.js";
import { OpenIdProvider } from "../oidc/provider.js";
import { SigningKeys } from "../oidc/signing-keys.js";
import type { Db } from "../storage/database.js";
import { KyselySigningKeyStore } from "../storage/oidc-key-store.js";

export interface OpenIdSetup {
  db: Db;
  clock: Clock;
  settings: HostSettings;
  users: UserDirectory;
  avatars: Avatars;
  oauth: OAuthService;
  /** The client-secret box (one key file): seals the private signing keys too. */
  sealer: SecretSealer;
}

/** Builds the OpenID Provider on the OAuth service and plugs its ID tokens into the token endpoint. */
export function createOpenIdProvider(setup: OpenIdSetup): OpenIdProvider {
  const keys = new SigningKeys(new KyselySigningKeyStore(setup.db), setup.sealer, setup.clock, () =>
    setup.settings.get("oidc.key_grace_period"),
  );
  const provider = new OpenIdProvider({
    keys,
    clock: setup.clock,
    users: setup.users,
    pictureUrl: async (baseUrl, uid) => {
      const extension = await setup.avatars.extensionOf(uid);
      return extension === undefined ? undefined : avatarUrlFor(baseUrl, uid, extension);
    },
    clients: { findByClientId: (clientId) => setup.oauth.findClient(clientId) },
  });
  setup.oauth.useIdTokens(provider);
  return provider;
}
