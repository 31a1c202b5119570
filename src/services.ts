import pino, { type Logger } from "pino";
import type { AppPasswords } from "./accounts/app-passwords.js";
import { Authenticator } from "./accounts/authentication.js";
import type { Avatars } from "./accounts/avatars.js";
import type { DeviceCredentials } from "./accounts/password-change.js";
import type { PasswordConfirmations } from "./accounts/password-confirmation.js";
import type { UserPreferences } from "./accounts/preferences.js";
import type { Sessions } from "./accounts/sessions.js";
import { SignIn } from "./accounts/sign-in.js";
import type { UserDirectory } from "./accounts/users.js";
import type { FileLogFollower } from "./activity/file-log-follower.js";
import { oauthActivityEvents } from "./activity/security-events.js";
import type { ActivityService } from "./activity/service.js";
import { auditOAuthEvents, eventListeners } from "./audit/oauth-events.js";
import type { AuditLog } from "./audit/recorder.js";
import { type Clock, systemClock } from "./clock.js";
import { HostSettings } from "./config/host-settings.js";
import type { SecretSealer } from "./crypto/secret-box.js";
import type { ValueSigner } from "./crypto/value-signer.js";
import type { Groups } from "./groups/service.js";
import type { JobScheduler } from "./jobs/scheduler.js";
import type { LoginFlowService } from "./login-flow/service.js";
import type { Notifications } from "./notifications/service.js";
import type { OAuthService } from "./oauth/service.js";
import { Metrics } from "./observability/metrics.js";
import type { OpenIdProvider } from "./oidc/provider.js";
import type { PushService } from "./push/service.js";
import type { Passkeys } from "./second-factor/passkeys.js";
import type { RecoveryCodes } from "./second-factor/recovery-codes.js";
import type { SecondFactors } from "./second-factor/service.js";
import type { TotpFactor } from "./second-factor/totp.js";
import type { AddressThrottles } from "./security/address-throttles.js";
import type { Throttles } from "./security/throttles.js";
import type { Storage } from "./storage/driver/connect.js";
import { countLiveCredentials } from "./storage/stores/observability/metrics-store.js";
import { wireAccounts } from "./wiring/accounts.js";
import { wireActivity } from "./wiring/activity.js";
import { wireAudit } from "./wiring/audit.js";
import { createFoundation, wireJobs } from "./wiring/foundation.js";
import { wireGroups } from "./wiring/groups.js";
import { LateBound } from "./wiring/late-bound.js";
import { wireLoginFlows } from "./wiring/login-flow.js";
import { wireNotifications } from "./wiring/notifications.js";
import { wireOAuth, wireOAuthClients } from "./wiring/oauth.js";
import { wireOidcLogout, wireOpenIdProvider } from "./wiring/oidc.js";
import { wirePush } from "./wiring/push.js";
import { wireSecondFactors } from "./wiring/second-factor.js";
import { wireSecurity } from "./wiring/security.js";

/**
 * Every domain service, built once from storage, settings and a clock, and handed to the HTTP
 * layer and the CLI alike.
 */
export interface Services extends Throttles {
  storage: Storage;
  settings: HostSettings;
  clock: Clock;
  log: Logger;
  dataDir: string;
  /** The client-secret key file's box: seals client secrets, grace pairs, signing keys, pending app passwords, settings flashes. */
  sealer: SecretSealer;
  /** Signs the login form's CSRF cookie (http/login-form-token.ts), with a key derived from the same key file. */
  loginFormSigner: ValueSigner;
  users: UserDirectory;
  /** Groups (ownCloud's occ group:*); membership of `admin` makes an administrator. */
  groups: Groups;
  preferences: UserPreferences;
  appPasswords: AppPasswords;
  sessions: Sessions;
  /** When each session's user last proved the password (accounts/password-confirmation.ts). */
  passwordConfirmations: PasswordConfirmations;
  /** What a password change's "sign out every device and application" ends: app passwords, OAuth grants. */
  deviceCredentials: readonly DeviceCredentials[];
  authenticator: Authenticator;
  jobs: JobScheduler;
  avatars: Avatars;
  oauth: OAuthService;
  /** OpenID Connect on top of `oauth`: ID tokens, signing keys, logout. */
  oidc: OpenIdProvider;
  activity: ActivityService;
  /** Nextcloud's Login Flow v2: flows in the database, app passwords sealed until polled. */
  loginFlows: LoginFlowService;
  /** Second factors: the providers (TOTP, recovery codes), enforcement, the login's step after the password. */
  secondFactors: SecondFactors;
  totp: TotpFactor;
  recoveryCodes: RecoveryCodes;
  /** Passkeys (WebAuthn): registration, passwordless sign-in, and the provider `webauthn`. */
  passkeys: Passkeys;
  /** Interactive sign-in: password, passkey, second factor (accounts/sign-in.ts). */
  signIn: SignIn;
  /** Every throttle's bucket of one client address: shown and lifted by `./occ security:bruteforce:*`. */
  addressThrottles: AddressThrottles;
  /** Follows the proxy's access log into file activities; started by the server. */
  fileLog: FileLogFollower;
  /** Push (nextcloud/notify_push's protocol): this node's sockets, pre-auth tokens, what is published to them. */
  push: PushService;
  /** Nextcloud's notifications API: what a user must know about their account, and administrators' messages. */
  notifications: Notifications;
  /** This process's Prometheus metrics (observability/metrics.ts); the HTTP layer records into it. */
  metrics: Metrics;
  /** The audit log (src/audit): who signed in, who changed what; flushed before occ exits and the server stops. */
  audit: AuditLog;
}

export interface ServiceOptions {
  storage: Storage;
  dataDir: string;
  settings?: HostSettings;
  clock?: Clock;
  log?: Logger;
  /** The server's metrics, made before the storage opens so that the storage times every statement into them. */
  metrics?: Metrics;
}

/**
 * The composition root: builds each module (src/wiring/) once its dependencies exist, handing every
 * listener to the constructor of the service that tells it (docs/architecture.md "Layers").
 */
export function createServices(options: ServiceOptions): Services {
  const { storage, dataDir } = options;
  const log = options.log ?? pino({ level: "info" });
  const clock = options.clock ?? systemClock;
  const settings = options.settings ?? new HostSettings(dataDir, {}, log);
  const metrics = options.metrics ?? new Metrics();
  metrics.watchStorage({
    pool: storage.poolStats,
    availability: () => ({ unavailable: storage.availability.unavailable, ...storage.availability.counts }),
    liveCredentials: () => countLiveCredentials(storage.db, clock.nowSeconds()),
  });
  const base = createFoundation(storage, dataDir, { clock, settings, log });
  const audit = wireAudit(base);
  const security = wireSecurity(base);
  const push = wirePush(base);
  const oidcLogout = wireOidcLogout(base);
  // True cycles, each closed by a reference bound once both ends exist: groups need the users (their
  // members), and the users ask groups before a removal (never the last administrator);
  // notifications keep their switches as user preferences, and the accounts tell of password
  // changes and app passwords created.
  const lastAdminGuard = new LateBound<Groups>("groups");
  const told = new LateBound<Notifications>("notifications");
  const accounts = wireAccounts(base, {
    sessionEnds: [oidcLogout.backchannel, push],
    users: {
      removalGuard: (uid) => lastAdminGuard.get().refuseRemovingLastAdmin(uid),
      passwordChanged: (uid) => told.get().passwordChanged(uid),
    },
    appPasswordCreated: (uid, name) => told.get().appPasswordCreated(uid, name),
    appPasswordsRevoked: (uid) => push.credentialsEnded(uid),
  });
  const { users, preferences, appPasswords, sessions, avatars } = accounts.services;
  const groups = wireGroups(base, users);
  lastAdminGuard.bind(groups.services.groups);
  const notifications = wireNotifications(base, preferences, push);
  const notify = told.bind(notifications.services.notifications);
  const activity = wireActivity(base, (rows) => push.activitiesWritten(rows));
  const secondFactor = wireSecondFactors(base, (uid, provider, change) => notify.secondFactorChanged(uid, provider, change));
  const loginFlow = wireLoginFlows(base, (uid, clientName) => notify.loginFlowGranted(uid, clientName));
  const clients = wireOAuthClients(base);
  const oidc = wireOpenIdProvider(base, { logout: oidcLogout, clients, groups: groups.services.groups, users, avatars });
  const oauth = wireOAuth(base, {
    clients,
    users,
    tokenThrottle: security.tokenThrottleStore,
    idTokens: oidc,
    // Authorizing and revoking a client: the audit log, the activity stream, and a notification.
    events: eventListeners(auditOAuthEvents(base.audit), oauthActivityEvents(activity.services.activity), {
      clientAuthorized: (uid, client) => notify.clientAuthorized(uid, client.name),
      clientRevoked: async () => {},
    }),
    groups: groups.groupLists,
  });
  const jobs = [accounts, security, audit, activity, oauth, oidcLogout, loginFlow, notifications].flatMap((m) => m.jobs);
  return {
    ...accounts.services,
    ...groups.services,
    ...security.services,
    ...activity.services,
    ...secondFactor.services,
    ...loginFlow.services,
    ...notifications.services,
    ...oauth.services,
    ...audit.services,
    storage,
    settings,
    clock,
    log,
    dataDir,
    sealer: base.sealer,
    loginFormSigner: base.signer("login form token"),
    // HTTP Basic asks the second factors whether the account password alone still proves a user.
    authenticator: new Authenticator(users, appPasswords, sessions, settings, {
      bearer: oauth.services.oauth,
      secondFactors: secondFactor.services.secondFactors,
    }),
    // Device credentials live in two domains; accounts' password change ends them through this list.
    deviceCredentials: [
      { endAllOf: (uid) => appPasswords.revokeAllOf(uid) },
      { endAllOf: (uid) => oauth.services.oauth.revokeAllOf(uid) },
    ],
    jobs: wireJobs(base, metrics, jobs),
    oidc,
    signIn: new SignIn({
      users,
      sessions,
      ...secondFactor.services,
      loginThrottle: security.services.loginThrottle,
      secondFactorThrottle: security.services.secondFactorThrottle,
    }),
    push,
    metrics,
  };
}
