import { type IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { WebSocket, WebSocketServer } from "ws";
import { acceptPushConnection, type VerifyCredentials } from "../../push/handshake.js";
import type { PushSocket } from "../../push/hub.js";
import { authenticateBasic } from "../plugins/authentication.js";
import { apiWrite, guarded } from "../plugins/route-guards.js";
import { PRE_AUTH_PATH, PUSH_WEBSOCKET_PATH } from "../push-endpoints.js";

/** A client's frames are a user name, a password and `listen notify_file_id`: nothing longer is read. */
const MAX_FRAME_BYTES = 4096;

/** The upgrade's socket, first bytes and routing response, held for the route while Fastify routes the request. */
const upgrades = new WeakMap<IncomingMessage, { socket: Socket; head: Buffer; response: ServerResponse }>();

/** The websocket library, loaded at the first upgrade: an idle server never holds it. */
let server: Promise<WebSocketServer> | undefined;
function websocketServer(): Promise<WebSocketServer> {
  server ??= import("ws").then(
    ({ WebSocketServer }) => new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false }),
  );
  return server;
}

/**
 * Push (nextcloud/notify_push's protocol, docs/clients.md): `GET /push/ws` upgraded to a websocket
 * and `POST /index.php/apps/notify_push/pre_auth`. An upgrade request goes through Fastify's
 * routing like any request (its hooks: host check, access log), with the socket held aside; the
 * route hands it to `ws`.
 */
export async function pushRoutes(app: FastifyInstance): Promise<void> {
  const { push } = app.services;
  app.server.on("upgrade", (raw: IncomingMessage, socket: Socket, head: Buffer) => {
    const response = new ServerResponse(raw);
    response.assignSocket(socket);
    upgrades.set(raw, { socket, head, response });
    app.routing(raw, response);
  });
  // Before the server stops taking connections: every socket is told the server goes away (1001).
  app.addHook("preClose", async () => {
    await push.hub.close();
  });

  app.get(PUSH_WEBSOCKET_PATH, async (request, reply) => {
    const upgrade = upgrades.get(request.raw);
    upgrades.delete(request.raw);
    if (!upgrade) {
      // RFC 6455 §4.2.2: a plain request is answered 426 with the protocol to upgrade to.
      return reply.status(426).header("upgrade", "websocket").type("text/plain").send("Upgrade Required");
    }
    const wss = await websocketServer();
    reply.hijack();
    // The socket is the websocket's from here: it no longer holds the routing response (and through
    // it the request), which an idle connection would otherwise keep for its whole life.
    upgrade.response.detachSocket(upgrade.socket);
    wss.handleUpgrade(request.raw, upgrade.socket, upgrade.head, (ws) => attach(app, ws, credentialsVerifier(app, request)));
  });

  // A pre-auth token opens the user's push socket, which tells of activities and files: a token
  // needs activity:read for it (a sign-in token is refused, as at the activity API).
  await app.register(
    guarded(apiWrite("activity:read"), (writes) => {
      writes.post(PRE_AUTH_PATH, async (request, reply) =>
        reply.header("cache-control", "no-store").type("text/plain").send(push.preAuth.issue(request.principal.user.uid)),
      );
    }),
  );
}

/**
 * The check of the credentials a socket sends. Made apart from `attach`: a closure there would
 * keep the request alive for as long as the socket's own closures (the connection's life).
 */
function credentialsVerifier(app: FastifyInstance, request: FastifyRequest): VerifyCredentials {
  const { push, users } = app.services;
  return async (user, password) => {
    if (user === "") {
      const uid = push.preAuth.verify(password);
      return uid !== undefined && (await users.find(uid))?.enabled ? uid : undefined;
    }
    const result = await authenticateBasic(request, user, password);
    return "principal" in result ? result.principal.user.uid : undefined;
  };
}

function attach(app: FastifyInstance, ws: WebSocket, verify: VerifyCredentials): void {
  const { push } = app.services;
  const socket: PushSocket = {
    send: (text) => ws.send(text),
    ping: () => ws.ping(),
    close: (code, reason) => ws.close(code, reason),
    terminate: () => ws.terminate(),
  };
  // Logged through the server's logger, not the request's: the socket must not keep its request alive.
  const events = acceptPushConnection(push.hub, socket, verify, push.authenticationTimeoutMs, (uid) =>
    app.log.info({ event: "push_authenticated", uid, sockets: push.hub.size }, "push socket authenticated"),
  );
  ws.on("message", (data, isBinary) => {
    if (isBinary) return;
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    events.text(bytes.toString("utf8"));
  });
  ws.on("pong", () => events.pong());
  ws.on("close", () => events.closed());
  ws.on("error", () => ws.terminate());
}
