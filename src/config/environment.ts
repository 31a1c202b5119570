import path from "node:path";
import { fileURLToPath } from "node:url";
import { readTimeouts, type ServerTimeouts } from "./timeouts.js";

/** The application root (where package.json and ./occ live), from src/config or dist/config alike. */
export const APP_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Process-level configuration from the environment, validated once at start and passed down. */
export interface Environment {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: string;
  /** Proxies whose X-Forwarded-* headers are believed (comma-separated addresses or CIDRs). */
  trustedProxies: string[];
  /** HTTP timeouts and the shutdown grace period (config/timeouts.ts). */
  timeouts: ServerTimeouts;
  /**
   * Bounds on waiting for the database (issue 16), in ms; absent values take the storage's
   * defaults (storage/postgres-pool.ts, storage/startup.ts).
   */
  database?: {
    connectTimeoutMs?: number | undefined;
    statementTimeoutMs?: number | undefined;
    startupTimeoutMs?: number | undefined;
  };
  /** The metrics and health listener (issue 18); undefined (off) unless KEYSTREAM_METRICS_PORT is set. */
  metricsListener?: MetricsListener | undefined;
}

/** Where GET /metrics, /health/live and /health/ready are served apart from the public port. */
export interface MetricsListener {
  host: string;
  port: number;
}

export function readEnvironment(env: NodeJS.ProcessEnv = process.env): Environment {
  const port = env.PORT === undefined || env.PORT === "" ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be an integer from 0 to 65535, got "${env.PORT}"`);
  }
  return {
    host: env.HOST || "127.0.0.1",
    port,
    // Default: <app root>/data, so `./occ` and the server agree whatever the working directory.
    dataDir: env.KEYSTREAM_DATA_DIR ? path.resolve(env.KEYSTREAM_DATA_DIR) : path.join(APP_ROOT, "data"),
    databaseUrl: env.KEYSTREAM_DATABASE_URL || undefined,
    logLevel: env.LOG_LEVEL || "info",
    trustedProxies: (env.KEYSTREAM_TRUSTED_PROXIES || "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    timeouts: readTimeouts(env),
    database: {
      connectTimeoutMs: milliseconds(env, "KEYSTREAM_DB_CONNECT_TIMEOUT_MS"),
      statementTimeoutMs: milliseconds(env, "KEYSTREAM_DB_STATEMENT_TIMEOUT_MS"),
      startupTimeoutMs: milliseconds(env, "KEYSTREAM_DB_STARTUP_TIMEOUT_MS"),
    },
    metricsListener: readMetricsListener(env),
  };
}

// --- Observability (issue 18): the metrics listener -------------------------------------------

/**
 * KEYSTREAM_METRICS_PORT turns the metrics listener on (off by default: no port opens unasked);
 * KEYSTREAM_METRICS_HOST is where it listens, the loopback interface unless set, so that the
 * metrics are not public by accident (docs/deployment.md).
 */
function readMetricsListener(env: NodeJS.ProcessEnv): MetricsListener | undefined {
  const raw = env.KEYSTREAM_METRICS_PORT;
  if (raw === undefined || raw === "") return undefined;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65_535) {
    throw new Error(`KEYSTREAM_METRICS_PORT must be an integer from 0 to 65535, got "${raw}"`);
  }
  return { host: env.KEYSTREAM_METRICS_HOST || "127.0.0.1", port };
}

/** A positive whole number of milliseconds, or undefined when the variable is unset. */
function milliseconds(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 86_400_000) {
    throw new Error(`${name} must be a whole number of milliseconds from 1 to 86400000, got "${raw}"`);
  }
  return value;
}
