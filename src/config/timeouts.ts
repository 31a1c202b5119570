/**
 * How long the HTTP server waits for a client, and how long a stopping server waits for its
 * requests (security review #11; docs/security.md "Timeouts and shutdown"). Milliseconds here;
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

/** The environment variable for each timeout (seconds, decimals allowed). */
export const TIMEOUT_VARIABLES: Record<keyof ServerTimeouts, string> = {
  headersMs: "KEYSTREAM_HEADERS_TIMEOUT_SECONDS",
  requestMs: "KEYSTREAM_REQUEST_TIMEOUT_SECONDS",
  keepAliveMs: "KEYSTREAM_KEEP_ALIVE_TIMEOUT_SECONDS",
  connectionMs: "KEYSTREAM_CONNECTION_TIMEOUT_SECONDS",
  shutdownGraceMs: "KEYSTREAM_SHUTDOWN_GRACE_SECONDS",
};

/** Reads and checks every timeout; a bad value names its variable. */
export function readTimeouts(env: NodeJS.ProcessEnv): ServerTimeouts {
  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS };
  for (const key of Object.keys(TIMEOUT_VARIABLES) as Array<keyof ServerTimeouts>) {
    const name = TIMEOUT_VARIABLES[key];
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const seconds = Number(raw);
    // 0 (Node's "never") is refused on purpose: that is the hole the review found.
    if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(seconds > 0) || seconds > 86_400) {
      throw new Error(`${name} must be a number of seconds greater than 0 and at most 86400, got "${raw}"`);
    }
    timeouts[key] = Math.round(seconds * 1000);
  }
  if (timeouts.headersMs > timeouts.requestMs) {
    throw new Error(`${TIMEOUT_VARIABLES.headersMs} must not exceed ${TIMEOUT_VARIABLES.requestMs}`);
  }
  return timeouts;
}
