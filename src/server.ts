import pino, { type Logger } from "pino";
import { buildApp } from "./app.js";
import type { Environment } from "./config/environment.js";
import { HostSettings } from "./config/host-settings.js";
import { isHttpsUrl } from "./http/base-url.js";
import { boundedClose } from "./http/connections.js";
import { listenMetrics } from "./http/metrics-listener.js";
import { logOptions } from "./observability/logging.js";
import { Metrics } from "./observability/metrics.js";
import { createServices } from "./services.js";
import { isDatabaseUnavailable } from "./storage/driver/availability.js";
import { openStorage } from "./storage/driver/connect.js";
import { migrateWhenAvailable } from "./storage/lifecycle/startup.js";
import { refuseEmptyPostgresBesideSqlite } from "./storage/lifecycle/stranded-sqlite.js";

/** How often each node reads new lines of the proxy's access log (activity.file_log). */
const FILE_LOG_INTERVAL_MS = 5000;

/** The log leaves in writes of this size under load... */
const LOG_BATCH_BYTES = 4096;
/** ...and at least this often (ms) when lines wait. */
const LOG_FLUSH_MS = 200;

/**
 * The server's log: JSON lines on stdout with ISO times and level names (observability/logging.ts).
 * Written asynchronously and in batches: lines gather until LOG_BATCH_BYTES and leave in one write
 * system call, or after LOG_FLUSH_MS when the server is quiet; pino flushes what is left on exit.
 * One write per line costs 7 % of a userinfo request's CPU and ≈ 5 % of a code exchange's
 * (docs/decisions.md, docs/performance.md).
 */
export function createServerLog(level: string): Logger {
  return pino(
    logOptions(level),
    pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS }),
  );
}

/**
 * An https `overwrite.cli.url` means a TLS proxy in front; without KEYSTREAM_TRUSTED_PROXIES its
 * forwarded headers are ignored, so every request looks like plain http from the proxy's address:
 * the login throttle then counts one address for everyone. Cookies are Secure and HSTS is sent
 * all the same (http/base-url.ts httpsSite); the warning says what is missing.
 */
function warnOfUntrustedTlsProxy(settings: HostSettings, environment: Environment, log: Logger): void {
  const configured = settings.get("overwrite.cli.url");
  if (!isHttpsUrl(configured) || environment.trustedProxies.length > 0) return;
  log.warn(
    { event: "https_proxy_not_trusted", overwriteCliUrl: configured },
    "overwrite.cli.url is https but no trusted proxy is configured (KEYSTREAM_TRUSTED_PROXIES): client addresses and the https scheme forwarded by the proxy are ignored",
  );
}

/**
 * Opens storage, migrates, builds the app and listens (and the metrics listener when configured).
 * Returns a `stop` that finishes in-flight requests (within the shutdown grace period, then cuts
 * them: http/connections.ts), stops background jobs and closes the database.
 */
export async function startServer(
  environment: Environment,
  log: Logger = createServerLog(environment.logLevel),
): Promise<{
  url: string;
  metricsUrl: string | undefined;
  /** Settles once the start's background work (a first start's signing key) has ended, well or not. */
  settled: Promise<unknown>;
  stop: () => Promise<void>;
  reload: () => string | undefined;
}> {
  // config.json is checked before anything else: a broken one stops the start with its message
  // (file, key, expected type), as there are no last good settings to keep yet.
  // Once at start: a setting the file and the environment both give, differently (the variable wins).
  for (const shadow of environment.shadowed ?? []) {
    log.warn(
      { event: "setting_shadowed", key: shadow.key, variable: shadow.variable, file: environment.configFile?.path },
      `${shadow.key} is ${JSON.stringify(shadow.environmentValue)} from ${shadow.variable}, which overrides ${JSON.stringify(shadow.fileValue)} in the configuration file`,
    );
  }
  const settings = new HostSettings(environment.dataDir, {}, log);
  settings.load();
  warnOfUntrustedTlsProxy(settings, environment, log);
  // Made before the storage, which times every statement into it from the first.
  const processMetrics = new Metrics();
  const storage = openStorage({
    databaseUrl: environment.databaseUrl,
    dataDir: environment.dataDir,
    backgroundCheckpoints: {
      onError: (message) => log.error({ event: "sqlite_checkpoint_failed" }, message),
      onRecovered: () => log.info({ event: "sqlite_checkpoint_recovered" }, "SQLite checkpoints work again"),
    },
    timeouts: { connectMs: environment.database?.connectTimeoutMs, statementMs: environment.database?.statementTimeoutMs },
    log,
    queryObserver: (ms, failed) => processMetrics.observeQuery(ms, failed),
    onPermissionsFixed: (report) =>
      log.warn({ event: "data_dir_permissions_fixed", ...report }, "data directory made readable by its owner only"),
  });
  const { databaseUrl } = environment;
  const migrations = await migrateWhenAvailable(storage, {
    timeoutMs: environment.database?.startupTimeoutMs,
    log,
    // Never an empty PostgreSQL instance beside a SQLite file that holds the users.
    beforeMigrate: databaseUrl ? () => refuseEmptyPostgresBesideSqlite(storage, environment.dataDir, databaseUrl) : undefined,
  }).catch(async (error: unknown) => {
    await storage.close().catch(() => undefined);
    throw error;
  });
  if (migrations.applied.length > 0) log.info({ applied: migrations.applied }, "database migrated");
  const services = createServices({ storage, dataDir: environment.dataDir, log, settings, metrics: processMetrics });
  services.metrics.collectProcessMetrics();
  const app = await buildApp({ services, trustedProxies: environment.trustedProxies, timeouts: environment.timeouts });
  const closeApp = boundedClose(app, environment.timeouts.shutdownGraceMs, log);
  await app.listen({ host: environment.host, port: environment.port });
  // The OpenID Connect signing key is generated at first start (kept in the database, sealed), once
  // the server listens: an RSA key takes 0.1–1 s to find, and what needs it (an ID token, the JWKS)
  // waits for the same generation (oidc/signing-keys.ts).
  const signingKey = services.oidc.keys
    .ensure()
    .catch((error: unknown) =>
      log.error({ event: "oidc_signing_key_failed", err: error }, "generating the OpenID Connect signing key failed"),
    );
  services.jobs.start();
  // Every node follows its own proxy log (activity.file_log); the database keeps them from publishing twice.
  services.fileLog.start(
    () => services.settings.get("activity.file_log"),
    FILE_LOG_INTERVAL_MS,
    (error) =>
      isDatabaseUnavailable(error)
        ? storage.availability.failed(error, "file log")
        : log.error({ event: "file_log_failed", err: error }, "reading the proxy log failed"),
  );
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : environment.port;
  const host = environment.host.includes(":") ? `[${environment.host}]` : environment.host;
  const url = `http://${host}:${port}`;
  log.info({ url, database: storage.describe, dataDir: environment.dataDir }, "Keystream listening");
  const metrics = environment.metricsListener && (await listenMetrics(services, environment.metricsListener));
  if (metrics) log.info({ url: `${metrics.url}/metrics` }, "metrics and health listening");
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await closeApp();
      await metrics?.app.close();
      await signingKey;
      await services.jobs.stop();
      await services.oidc.backchannel.settled();
      await services.fileLog.stop();
      // The audit events of the last requests are written before the database closes.
      await services.audit.flush();
      await storage.close();
      log.info("Keystream stopped");
    })();
    return stopping;
  };
  /**
   * Re-reads config.json now (SIGHUP). A broken file keeps the last good values; the answer is why
   * it is broken, undefined when it was read fine. The process settings (address, port, database)
   * are read once at start: they change with a restart.
   */
  const reload = () => {
    settings.load();
    return settings.problem();
  };
  return { url, metricsUrl: metrics?.url, settled: signingKey, stop, reload };
}
