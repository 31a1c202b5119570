import pino, { type Logger } from "pino";
import { AppPasswords } from "./accounts/app-passwords.js";
import { Authenticator } from "./accounts/authentication.js";
import { Avatars } from "./accounts/avatars.js";
import { UserPreferences } from "./accounts/preferences.js";
import { Sessions } from "./accounts/sessions.js";
import { UserDirectory } from "./accounts/users.js";
import { FileLogFollower } from "./activity/file-log-follower.js";
import { registerActivityJobs } from "./activity/jobs.js";
import { oauthActivityEvents } from "./activity/security-events.js";
import { ActivityService } from "./activity/service.js";
import { type Clock, systemClock } from "./clock.js";
import { HostSettings } from "./config/host-settings.js";
import { keyFileSecretBox } from "./crypto/secret-box.js";
import { JobScheduler } from "./jobs/scheduler.js";
import { LoginFlowService } from "./login-flow/service.js";
import type { OAuthService } from "./oauth/service.js";
import { CLIENT_SECRET_KEY_FILE, createOAuthService } from "./oauth/setup.js";
import { Metrics } from "./observability/metrics.js";
import type { OpenIdProvider } from "./oidc/provider.js";
import { createOpenIdProvider } from "./oidc/setup.js";
import {
  LOGIN_FLOW_POLL_THROTTLE,
  LOGIN_FLOW_START_THROTTLE,
  LOGIN_THROTTLE,
  Throttle,
  TOKEN_THROTTLE,
} from "./security/throttle.js";
import { SqlFileLogStore } from "./storage/activity-file-log-store.js";
import { SqlIdempotencyStore } from "./storage/activity-idempotency-store.js";
import { SqlActivityStore } from "./storage/activity-store.js";
import type { Storage } from "./storage/connect.js";
import { SqlLoginFlowStore } from "./storage/login-flow-store.js";
import { countLiveCredentials } from "./storage/metrics-store.js";

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
  users: UserDirectory;
  preferences: UserPreferences;
  appPasswords: AppPasswords;
  sessions: Sessions;
  loginThrottle: Throttle;
  /** OAuth token, revocation and introspection endpoints, per IP (issue 5). */
  tokenThrottle: Throttle;
  authenticator: Authenticator;
  jobs: JobScheduler;
  avatars: Avatars;
  oauth: OAuthService;
  /** OpenID Connect on top of `oauth` (issue 15): ID tokens, signing keys, logout. */
  oidc: OpenIdProvider;
  activity: ActivityService;
  /** Nextcloud's Login Flow v2 (issue 13): flows in the database, app passwords sealed until polled. */
  loginFlows: LoginFlowService;
  /** Login Flow v2 starts and polls, per IP (security/throttle.ts). */
  loginFlowStartThrottle: Throttle;
  loginFlowPollThrottle: Throttle;
  /** Follows the proxy's access log into file activities (issue 14); started by the server. */
  fileLog: FileLogFollower;
  /** This process's Prometheus metrics (observability/metrics.ts); the HTTP layer records into it. */
  metrics: Metrics;
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
  const users = new UserDirectory(db, clock);
  const preferences = new UserPreferences(db, users);
  const appPasswords = new AppPasswords(db, clock);
  const sessions = new Sessions(db, clock, () => settings.get("session.lifetime"));
  const authenticator = new Authenticator(users, appPasswords, sessions, settings);
  const metrics = new Metrics();
  metrics.watchStorage({
    pool: storage.poolStats,
    availability: () => ({ unavailable: storage.availability.unavailable, ...storage.availability.counts }),
    liveCredentials: () => countLiveCredentials(db, clock.nowSeconds()),
  });
  storage.observeQueries((ms, failed) => metrics.observeQuery(ms, failed));
  const jobs = new JobScheduler(db, clock, log, undefined, storage.availability, (job, outcome, ms) =>
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
  const loginThrottle = new Throttle(db, clock, LOGIN_THROTTLE);
  const tokenThrottle = new Throttle(db, clock, TOKEN_THROTTLE);
  const loginFlowStartThrottle = new Throttle(db, clock, LOGIN_FLOW_START_THROTTLE);
  const loginFlowPollThrottle = new Throttle(db, clock, LOGIN_FLOW_POLL_THROTTLE);
  // Throttle rows whose failures were forgotten and that hold no reservation (review finding 10).
  jobs.register({
    name: "security:throttle-purge",
    intervalSeconds: () => 3600,
    run: async () => {
      await loginThrottle.purgeStale();
      await tokenThrottle.purgeStale();
      await loginFlowStartThrottle.purgeStale();
      await loginFlowPollThrottle.purgeStale();
    },
  });
  const fileLogStore = new SqlFileLogStore(db);
  const fileLog = new FileLogFollower({ activity, cursors: fileLogStore, clock, log });
  registerActivityJobs(jobs, activity, fileLogStore, log);
  // Authorizing and revoking a client lands in the user's activity stream (issue 4).
  const oauth = createOAuthService({
    db,
    dialect: storage.dialect,
    dataDir,
    clock,
    settings,
    log,
    users,
    jobs,
    authenticator,
    events: oauthActivityEvents(activity),
  });
  const avatars = new Avatars(db, clock);
  // The private signing keys are sealed with the client-secret key file (docs/decisions.md).
  const oidc = createOpenIdProvider({
    db,
    clock,
    settings,
    users,
    avatars,
    oauth,
    sealer: keyFileSecretBox(dataDir, CLIENT_SECRET_KEY_FILE),
  });
  // Login Flow v2 keeps the granted app password sealed with the client-secret key file until the
  // poll (docs/decisions.md), and expired flows are purged with the app passwords nobody received.
  const loginFlows = new LoginFlowService(
    new SqlLoginFlowStore(db, (on) => new AppPasswords(on, clock)),
    clock,
    keyFileSecretBox(dataDir, CLIENT_SECRET_KEY_FILE),
  );
  jobs.register({
    name: "login-flow:expired",
    intervalSeconds: () => 600,
    run: async () => {
      await loginFlows.purgeExpired();
    },
  });
  return {
    storage,
    settings,
    clock,
    log,
    dataDir,
    users,
    preferences,
    appPasswords,
    sessions,
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
    fileLog,
    metrics,
  };
}
