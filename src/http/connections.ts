import type { Socket } from "node:net";
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from "fastify";
import type { ServerTimeouts } from "../config/timeouts.js";

/**
 * The server's connection timeouts as Fastify/Node options (config/timeouts.ts). Node enforces
 * the headers and request timeouts from a periodic sweep (`connectionsCheckingInterval`, 30 s by
 * default); it runs at least every second here, so a timeout ends within a second of its value.
 */
export function connectionOptions(timeouts: ServerTimeouts): Pick<
  FastifyServerOptions,
  "connectionTimeout" | "keepAliveTimeout" | "requestTimeout"
> & {
  http: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    connectionTimeout: timeouts.connectionMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 2))),
    },
  };
}

/** While stopping, connections that became idle (their last response sent) are closed this often. */
const IDLE_SWEEP_MS = 100;

/**
 * A bounded graceful close (fault 4: one idle client kept a SIGTERMed process alive). Call before
 * `listen`; the returned function replaces `app.close()`:
 * - new connections are refused and idle keep-alive connections closed at once (Node, Fastify);
 * - connections that never sent a byte are closed at once too (Node counts them as busy: their
 *   headers timer runs, but the sweep that enforces it stops when the server closes);
 * - requests in flight get `graceMs` to finish, and their connections are closed as soon as they
 *   are idle (a response that started before the close still says keep-alive: Node closes idle
 *   connections only when asked, so it is asked every IDLE_SWEEP_MS);
 * - after `graceMs` every connection left is closed, and the close completes.
 */
export function boundedClose(app: FastifyInstance, graceMs: number, log: FastifyBaseLogger): () => Promise<void> {
  const sockets = new Set<Socket>();
  app.server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  return async () => {
    const closing = app.close();
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
    const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    const deadline = setTimeout(() => {
      log.warn(
        { event: "shutdown_grace_over", graceMs, connections: sockets.size },
        "shutdown grace period over: closing the connections left",
      );
      app.server.closeAllConnections();
    }, graceMs);
    try {
      await closing;
    } finally {
      clearInterval(sweep);
      clearTimeout(deadline);
    }
  };
}
