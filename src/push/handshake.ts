import type { PushHub, PushSocket } from "./hub.js";

/** nextcloud/notify_push `src/connection.rs`: the client has 15 s to authenticate. */
export const AUTHENTICATION_TIMEOUT_MS = 15_000;
/** The answers of nextcloud/notify_push `socket_auth`; the desktop client matches the second literally. */
export const AUTHENTICATED = "authenticated";
export const INVALID_CREDENTIALS = "err: Invalid credentials";
export const AUTHENTICATION_TIMEOUT = "err: Authentication timeout";
const TOO_MANY_CONNECTIONS = "err: Too many connections";
/** RFC 6455 §7.4.1: 1008, policy violation (refused credentials, too many connections, too slow). */
const CLOSE_POLICY = 1008;

/**
 * Checks a user name and password the client sent (an app password, or the account password where
 * HTTP Basic allows it, or an empty name and a pre-auth token): the user id, or undefined.
 */
export type VerifyCredentials = (user: string, password: string) => Promise<string | undefined>;

/** What the HTTP layer feeds a connection from its websocket's events. */
export interface PushConnectionEvents {
  text(text: string): void;
  pong(): void;
  closed(): void;
}

/**
 * One websocket through nextcloud/notify_push's authentication (DEVELOPING.md): the user name,
 * then the password, as two text frames; `authenticated` and the socket joins the hub, or
 * `err: Invalid credentials` and it closes. Nothing within `timeoutMs`: closed too.
 */
export function acceptPushConnection(
  hub: PushHub,
  socket: PushSocket,
  verify: VerifyCredentials,
  timeoutMs = AUTHENTICATION_TIMEOUT_MS,
  /** Told the user once the socket is authenticated and taken by the hub (the HTTP layer logs it). */
  opened: (uid: string) => void = () => undefined,
): PushConnectionEvents {
  let user: string | undefined;
  // Let go of once used: what it holds (the upgrade request) is not kept for the connection's life.
  let pendingVerify: VerifyCredentials | undefined = verify;
  let state: "name" | "password" | "checking" | "open" | "closed" = "name";
  // Read after an await: the socket may have closed meanwhile.
  const closed = () => state === "closed";
  // Dropped once stopped: an open connection keeps no timer object.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopTimer = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const refuse = (message: string) => {
    state = "closed";
    stopTimer();
    socket.send(message);
    socket.close(CLOSE_POLICY, message.slice(5));
  };
  timer = setTimeout(() => {
    if (state !== "open" && state !== "closed") refuse(AUTHENTICATION_TIMEOUT);
  }, timeoutMs);
  timer.unref();
  const check = async (name: string, password: string) => {
    let uid: string | undefined;
    const verifying = pendingVerify;
    pendingVerify = undefined;
    try {
      uid = await verifying?.(name, password);
    } catch {
      uid = undefined;
    }
    if (closed()) return;
    if (uid === undefined) return refuse(INVALID_CREDENTIALS);
    stopTimer();
    await hub.start();
    if (closed()) return;
    if (!hub.add(uid, socket)) return refuse(TOO_MANY_CONNECTIONS);
    state = "open";
    socket.send(AUTHENTICATED);
    opened(uid);
  };
  return {
    text(text) {
      if (state === "name") {
        user = text;
        state = "password";
      } else if (state === "password") {
        state = "checking";
        void check(user ?? "", text);
      } else if (state === "open") {
        hub.received(socket, text);
      }
    },
    pong() {
      hub.pong(socket);
    },
    closed() {
      state = "closed";
      stopTimer();
      hub.remove(socket);
    },
  };
}
