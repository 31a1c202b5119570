import pino, { type Logger } from "pino";
import { AppPasswords } from "./accounts/app-passwords.js";
import { Authenticator } from "./accounts/authentication.js";
import { Avatars } from "./accounts/avatars.js";
import type { DeviceCredentials } from "./accounts/password-change.js";
import { PasswordConfirmations } from "./accounts/password-confirmation.js";
import type { SessionEndObserver } from "./accounts/ports.js";
import { UserPreferences } from "./accounts/preferences.js";
import { Sessions } from "./accounts/sessions.js";
import { SignIn } from "./accounts/sign-in.js";
import { UserDirectory } from "./accounts/users.js";
import { FileLogFollower } from "./activity/file-log-follower.js";
import { registerActivityJobs } from "./activity/jobs.js";
import { oauthActivityEvents } from "./activity/security-events.js";
import { ActivityService } from "./activity/service.js";
import { AuditLog } from "./audit/recorder.js";
import { auditHostSettingChanges, auditOAuthEvents, eventListeners } from "./audit/wiring.js";
import { type Clock, systemClock } from "./clock.js";
import { HostSettings } from "./config/host-settings.js";
import { keyFileSecretBox, type SecretSealer } from "./crypto/secret-box.js";
import { keyFileSigner, type ValueSigner } from "./crypto/value-signer.js";
import { GroupError } from "./groups/errors.js";
import { Groups } from "./groups/service.js";
import { JobScheduler } from "./jobs/scheduler.js";
import { LoginFlowService } from "./login-flow/service.js";
import type { Notifications } from "./notifications/service.js";
import type { OAuthService } from "./oauth/service.js";
import { Metrics } from "./observability/metrics.js";
import type { OpenIdProvider } from "./oidc/provider.js";
import { PushService } from "./push/service.js";

import { Passkeys } from "./second-factor/passkeys.js";
import { RecoveryCodes } from "./second-factor/recovery-codes.js";
import { SecondFactors } from "./second-factor/service.js";
import { TotpFactor } from "./second-factor/totp.js";
import { AddressThrottles } from "./security/address-throttles.js";
import {
  DEVICE_USER_CODE_THROTTLE,
  LOGIN_FLOW_POLL_THROTTLE,
  LOGIN_FLOW_START_THROTTLE,
  LOGIN_THROTTLE,
  REGISTRATION_THROTTLE,
  SECOND_FACTOR_THROTTLE,
  type ThrottlePolicy,
  TOKEN_THROTTLE,
} from "./security/domain/throttle-policy.js";
import { Throttle } from "./security/throttle.js";
import { SqlAppPasswordStore } from "./storage/account-app-password-store.js";
import { SqlAvatarStore } from "./storage/account-avatar-store.js";
import { SqlPasswordConfirmationStore } from "./storage/account-password-confirmation-store.js";
import { SqlPreferenceStore } from "./storage/account-preference-store.js";
import { SqlSessionStore } from "./storage/account-session-store.js";
import { SqlUserStore } from "./storage/account-user-store.js";
import { SqlFileLogStore } from "./storage/activity-file-log-store.js";
import { SqlIdempotencyStore } from "./storage/activity-idempotency-store.js";
import { SqlActivityStore } from "./storage/activity-store.js";
import { SqlAuditStore } from "./storage/audit-store.js";
import { isDatabaseUnavailable } from "./storage/availability.js";
import type { Storage } from "./storage/connect.js";
import { SqlGroupStore } from "./storage/group-store.js";
import { SqlJobLeaseStore } from "./storage/job-lease-store.js";
import { SqlLoginFlowStore } from "./storage/login-flow-store.js";
import { countLiveCredentials } from "./storage/metrics-store.js";
import { SqlPasskeyStore, SqlWebAuthnChallengeStore } from "./storage/passkey-store.js";
import { openPushChannel } from "./storage/push-channel.js";
import { SqlRecoveryCodeStore, SqlSecondFactorOverview, SqlTotpStore } from "./storage/second-factor-store.js";
import { SqlThrottleStore } from "./storage/throttle-store.js";
import { createNotifications } from "./wiring/notifications.js";
import { CLIENT_SECRET_KEY_FILE, createOAuthService } from "./wiring/oauth.js";
import { createOpenIdProvider } from "./wiring/oidc.js";

/**
 * Every domain service, built once from storage, settings and a clock, and handed to the HTTP
 * layer and the CLI alike.
 */
export interface Services {
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
  loginThrottle: Throttle;
  /** OAuth token, revocation and introspection endpoints, per IP. */
  tokenThrottle: Throttle;
  authenticator: Authenticator;
  jobs: JobScheduler;
  avatars: Avatars;
  oauth: OAuthService;
  /** OpenID Connect on top of `oauth`: ID tokens, signing keys, logout. */
  oidc: OpenIdProvider;
  activity: ActivityService;
  /** Nextcloud's Login Flow v2: flows in the database, app passwords sealed until polled. */
  loginFlows: LoginFlowService;
  /** Login Flow v2 starts and polls, per IP (security/domain/throttle-policy.ts). */
  loginFlowStartThrottle: Throttle;
  loginFlowPollThrottle: Throttle;
  /** User codes entered on the device verification page (RFC 8628 §5.1), per IP and per user. */
  deviceUserCodeThrottle: Throttle;

  /** Dynamic client registrations (RFC 7591), per IP. */
  registrationThrottle: Throttle;
  /** Second factors: the providers (TOTP, recovery codes), enforcement, the login's step after the password. */
  secondFactors: SecondFactors;
  totp: TotpFactor;
  recoveryCodes: RecoveryCodes;
  /** Passkeys (WebAuthn): registration, passwordless sign-in, and the provider `webauthn`. */
  passkeys: Passkeys;
  /** The second-factor challenge, per IP and per user (security/domain/throttle-policy.ts). */
  secondFactorThrottle: Throttle;
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

/** Groups as OAuth client administration asks for them: a comma-separated list resolved, or what to say. */
function groupLists(groups: Groups) {
  return {
    async resolve(text: string) {
      try {
        return { gids: await groups.existingGroupList(text) };
      } catch (error) {
        if (error instanceof GroupError) return { problem: error.phrase, message: error.message };
        throw error;
      }
    },
  };
}

export interface ServiceOptions {
  storage: Storage;
  dataDir: string;
  settings?: HostSettings;
  clock?: Clock;
  log?: Logger;
}

export function createServices(options: ServiceOptions): Services {
  const { storage, dataDir } = options;
  const db = storage.db;
  const clock = options.clock ?? systemClock;
  const log = options.log ?? pino({ level: "info" });
  const settings = options.settings ?? new HostSettings(dataDir, {}, log);
  // Events are queued and appended in batches off the request's path (audit/recorder.ts).
  const audit = new AuditLog(new SqlAuditStore(db, storage.dialect), clock, log);
  auditHostSettingChanges(settings, audit);
  const sessionStore = new SqlSessionStore(db);
  // Told when sessions end (OpenID Connect back-channel logout joins below).
  const sessionEndObservers: SessionEndObserver[] = [];
  const users = new UserDirectory(new SqlUserStore(db), sessionStore, clock, sessionEndObservers, audit);
  const groups = new Groups(new SqlGroupStore(db, storage.dialect), users, clock, audit);
  // The last administrator is never deleted (nor removed from `admin`, Groups.removeMember).
  users.useRemovalGuard((uid) => groups.refuseRemovingLastAdmin(uid));
  const preferences = new UserPreferences(new SqlPreferenceStore(db), users);
  const appPasswords = new AppPasswords(new SqlAppPasswordStore(db), clock, audit);
  const sessions = new Sessions(sessionStore, clock, () => settings.get("session.lifetime"), sessionEndObservers);
  const authenticator = new Authenticator(users, appPasswords, sessions, settings);
  const passwordConfirmations = new PasswordConfirmations(new SqlPasswordConfirmationStore(db), clock);
  const metrics = new Metrics();
  metrics.watchStorage({
    pool: storage.poolStats,
    availability: () => ({ unavailable: storage.availability.unavailable, ...storage.availability.counts }),
    liveCredentials: () => countLiveCredentials(db, clock.nowSeconds()),
  });
  storage.observeQueries((ms, failed) => metrics.observeQuery(ms, failed));
  const outages = {
    isUnavailable: isDatabaseUnavailable,
    failed: (error: unknown, context: string) => storage.availability.failed(error, context),
  };
  const jobs = new JobScheduler(new SqlJobLeaseStore(db), clock, log, undefined, outages, (job, outcome, ms) =>
    metrics.jobRan(job, outcome, ms),
  );
  jobs.register({
    name: "accounts:expired-sessions",
    intervalSeconds: () => 3600,
    run: async () => {
      await sessions.deleteExpired();
    },
  });
  const activity = new ActivityService(new SqlActivityStore(db, storage.dialect), new SqlIdempotencyStore(db), clock, () =>
    settings.get("activity_expire_days"),
  );
  const throttle = (policy: ThrottlePolicy, store = new SqlThrottleStore(db, policy)) => new Throttle(store, clock, policy);
  const tokenThrottleStore = new SqlThrottleStore(db, TOKEN_THROTTLE);
  const loginThrottle = throttle(LOGIN_THROTTLE);
  const tokenThrottle = throttle(TOKEN_THROTTLE, tokenThrottleStore);
  const loginFlowStartThrottle = throttle(LOGIN_FLOW_START_THROTTLE);
  const loginFlowPollThrottle = throttle(LOGIN_FLOW_POLL_THROTTLE);
  const deviceUserCodeThrottle = throttle(DEVICE_USER_CODE_THROTTLE);

  const registrationThrottle = throttle(REGISTRATION_THROTTLE);
  const secondFactorThrottle = throttle(SECOND_FACTOR_THROTTLE);
  // Throttle rows whose failures were forgotten and that hold no reservation: the table stays small.
  jobs.register({
    name: "security:throttle-purge",
    intervalSeconds: () => 3600,
    run: async () => {
      await loginThrottle.purgeStale();
      await tokenThrottle.purgeStale();
      await loginFlowStartThrottle.purgeStale();
      await loginFlowPollThrottle.purgeStale();
      await deviceUserCodeThrottle.purgeStale();

      await registrationThrottle.purgeStale();
      await secondFactorThrottle.purgeStale();
    },
  });
  // The audit log's retention (host setting audit.retention_days), daily.
  jobs.register({
    name: "audit:retention",
    intervalSeconds: () => 86_400,
    run: async () => {
      const deleted = await audit.purgeOlderThan(settings.get("audit.retention_days"));
      if (deleted > 0) log.info({ event: "audit_expired", deleted }, "audit events past their retention deleted");
    },
  });
  const fileLogStore = new SqlFileLogStore(db);
  const fileLog = new FileLogFollower({ activity, cursors: fileLogStore, clock, log });
  registerActivityJobs(jobs, activity, fileLogStore, log);
  // One box (one key file) seals every secret kept at rest.
  const sealer = keyFileSecretBox(dataDir, CLIENT_SECRET_KEY_FILE);
  // Second factors: TOTP secrets sealed with the same box as client secrets; the authentication
  // chain asks the registry whether the account password alone still proves a user (HTTP Basic).
  const totp = new TotpFactor(new SqlTotpStore(db), sealer, clock, audit);
  const recoveryCodes = new RecoveryCodes(new SqlRecoveryCodeStore(db), clock, audit);
  const passkeys = new Passkeys(new SqlPasskeyStore(db), new SqlWebAuthnChallengeStore(db), clock, audit);
  const secondFactors = new SecondFactors(
    [totp, recoveryCodes, passkeys],
    {
      enforced: () => settings.get("twofactor_enforced"),
      setEnforced: (on) => settings.set("twofactor_enforced", on),
    },
    new SqlSecondFactorOverview(db),
  );
  authenticator.useSecondFactorPolicy(secondFactors);
  const loginFormSigner = keyFileSigner(dataDir, CLIENT_SECRET_KEY_FILE, "login form token");
  // Authorizing and revoking a client lands in the user's activity stream (and notifications, below).
  const oauth = createOAuthService({
    db,
    dialect: storage.dialect,
    clock,
    settings,
    log,
    users,
    jobs,
    authenticator,
    sealer,
    tokenThrottle: tokenThrottleStore,
    audit,
    groups: groupLists(groups),
  });
  const avatars = new Avatars(new SqlAvatarStore(db), clock);
  // The private signing keys are sealed with the client-secret key file (docs/decisions.md).
  const oidc = createOpenIdProvider({
    db,
    clock,
    settings,
    users,
    avatars,
    oauth,
    sealer,
    sidSigner: keyFileSigner(dataDir, CLIENT_SECRET_KEY_FILE, "oidc session id"),
    groups,
    jobs,
    log,
  });
  sessionEndObservers.push(oidc.backchannel);
  // Login Flow v2 keeps the granted app password sealed with the client-secret key file until the
  // poll (docs/decisions.md), and expired flows are purged with the app passwords nobody received.
  const loginFlows = new LoginFlowService(new SqlLoginFlowStore(db), clock, sealer, audit);
  jobs.register({
    name: "login-flow:expired",
    intervalSeconds: () => 600,
    run: async () => {
      await loginFlows.purgeExpired();
    },
  });
  // Push: activities written and credentials ended reach the users' sockets on every node.
  const push = new PushService(
    openPushChannel(storage, (error) => log.warn({ event: "push_channel_failed", err: error }, "push channel lost")),
    keyFileSigner(dataDir, CLIENT_SECRET_KEY_FILE, "push pre-auth"),
    clock,
    (error) => log.warn({ event: "push_publish_failed", err: error }, "push event not published"),
  );
  activity.observeWritten((rows) => push.activitiesWritten(rows));
  appPasswords.observeRevocations((uid) => push.credentialsEnded(uid));
  sessionEndObservers.push(push);
  const notifications = createNotifications({
    db,
    clock,
    preferences,
    push,
    jobs,
    log,
    told: { users, appPasswords, loginFlows, secondFactors },
  });
  // Authorizing and revoking a client: the audit log, the activity stream, and a notification.
  oauth.useEvents(
    eventListeners(auditOAuthEvents(audit), oauthActivityEvents(activity), {
      clientAuthorized: (uid, client) => notifications.clientAuthorized(uid, client.name),
      clientRevoked: async () => {},
    }),
  );
  // Device credentials live in two domains; accounts' password change ends them through this list.
  const deviceCredentials: DeviceCredentials[] = [
    { endAllOf: (uid) => appPasswords.revokeAllOf(uid) },
    { endAllOf: (uid) => oauth.revokeAllOf(uid) },
  ];
  return {
    storage,
    settings,
    clock,
    log,
    dataDir,
    sealer,
    loginFormSigner,
    users,
    groups,
    preferences,
    appPasswords,
    sessions,
    passwordConfirmations,
    deviceCredentials,
    loginThrottle,
    tokenThrottle,
    authenticator,
    jobs,
    avatars,
    oauth,
    oidc,
    activity,
    loginFlows,
    loginFlowStartThrottle,
    loginFlowPollThrottle,
    deviceUserCodeThrottle,

    registrationThrottle,
    secondFactors,
    totp,
    recoveryCodes,
    passkeys,
    secondFactorThrottle,
    signIn: new SignIn({ users, sessions, secondFactors, passkeys, recoveryCodes, loginThrottle, secondFactorThrottle }),
    addressThrottles: new AddressThrottles(
      [
        loginThrottle,
        tokenThrottle,
        loginFlowStartThrottle,
        loginFlowPollThrottle,
        deviceUserCodeThrottle,

        registrationThrottle,
        secondFactorThrottle,
      ],
      audit,
    ),
    fileLog,
    push,
    notifications,
    metrics,
    audit,
  };
}
