import { ConfigurationError, fromVariable, readVariables, secondsSetting } from "./setting.js";

/**
 * How long the HTTP server waits for a client, and how long a stopping server waits for its
 * requests (docs/security.md "Timeouts and shutdown"). Milliseconds here;
 * the environment gives seconds (environment.ts).
 */
export interface ServerTimeouts {
  /** From connection (or the previous response) to the end of the request headers. */
  headersMs: number;
  /** From the start of a request to the end of its body: a slow-body client is cut off (408). */
  requestMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
  /** A socket with no traffic either way (a stalled handler, a client that stops reading) is destroyed. */
  connectionMs: number;
  /** SIGTERM: in-flight requests get this long to finish, then every connection is closed. */
  shutdownGraceMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 20_000,
  // A 1 MB body (the limit) at 256 kbit/s takes ≈ 32 s.
  requestMs: 60_000,
  // Longer than nginx's upstream keepalive_timeout (60 s): the proxy, not Keystream, ends an idle
  // pooled connection, so it never sends a request on a socket Keystream is closing (a 502).
  keepAliveMs: 75_000,
  connectionMs: 120_000,
  // Under the 30 s that Kubernetes and systemd-in-containers commonly allow before SIGKILL.
  shutdownGraceMs: 20_000,
};

/**
 * Each timeout as a setting: its key in the configuration file and its environment variable, in
 * seconds (decimals allowed). 0 (Node's "never") is refused on purpose: a slow-body client would
 * then hold its connection indefinitely.
 */
export const timeoutSettingDefinitions = {
  headers_timeout_seconds: fromVariable(
    "KEYSTREAM_HEADERS_TIMEOUT_SECONDS",
    secondsSetting("Seconds a client has to send the request headers.", DEFAULT_SERVER_TIMEOUTS.headersMs / 1000, 86_400),
  ),
  request_timeout_seconds: fromVariable(
    "KEYSTREAM_REQUEST_TIMEOUT_SECONDS",
    secondsSetting("Seconds a client has to send a whole request (408 after).", DEFAULT_SERVER_TIMEOUTS.requestMs / 1000, 86_400),
  ),
  keep_alive_timeout_seconds: fromVariable(
    "KEYSTREAM_KEEP_ALIVE_TIMEOUT_SECONDS",
    secondsSetting("Seconds an idle keep-alive connection stays open.", DEFAULT_SERVER_TIMEOUTS.keepAliveMs / 1000, 86_400),
  ),
  connection_timeout_seconds: fromVariable(
    "KEYSTREAM_CONNECTION_TIMEOUT_SECONDS",
    secondsSetting("Seconds a socket may stay without traffic either way.", DEFAULT_SERVER_TIMEOUTS.connectionMs / 1000, 86_400),
  ),
  shutdown_grace_seconds: fromVariable(
    "KEYSTREAM_SHUTDOWN_GRACE_SECONDS",
    secondsSetting("Seconds in-flight requests get after SIGTERM.", DEFAULT_SERVER_TIMEOUTS.shutdownGraceMs / 1000, 86_400),
  ),
} as const;

const TIMEOUT_FIELDS: Record<keyof typeof timeoutSettingDefinitions, keyof ServerTimeouts> = {
  headers_timeout_seconds: "headersMs",
  request_timeout_seconds: "requestMs",
  keep_alive_timeout_seconds: "keepAliveMs",
  connection_timeout_seconds: "connectionMs",
  shutdown_grace_seconds: "shutdownGraceMs",
};

/** The environment variable for each timeout. */
export const TIMEOUT_VARIABLES = Object.fromEntries(
  Object.entries(TIMEOUT_FIELDS).map(([key, field]) => [
    field,
    timeoutSettingDefinitions[key as keyof typeof TIMEOUT_FIELDS].variable,
  ]),
) as Record<keyof ServerTimeouts, string>;

/** The timeouts from checked settings in seconds (file and environment merged), defaults for the rest. */
export function timeoutsFromSettings(seconds: Record<string, unknown>): ServerTimeouts {
  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS };
  for (const [key, field] of Object.entries(TIMEOUT_FIELDS)) {
    const value = seconds[key];
    if (typeof value === "number") timeouts[field] = Math.round(value * 1000);
  }
  if (timeouts.headersMs > timeouts.requestMs) {
    throw new ConfigurationError(
      `${TIMEOUT_VARIABLES.headersMs} must not exceed ${TIMEOUT_VARIABLES.requestMs} ` +
        "(headers_timeout_seconds, request_timeout_seconds in the configuration file)",
    );
  }
  return timeouts;
}

/** Reads and checks every timeout from the environment alone; a bad value names its variable. */
export function readTimeouts(env: NodeJS.ProcessEnv): ServerTimeouts {
  const { values, problems } = readVariables(timeoutSettingDefinitions, env);
  if (problems.length > 0) throw new ConfigurationError(problems.join("; "));
  return timeoutsFromSettings(values);
}
