/**
 * A load-generating process of the push scenarios (bench/scenarios/push.ts), forked by the bench
 * with an IPC channel: it holds its share of the websocket clients, so that the server under
 * measurement is never the load generator. Each client speaks as nextcloud/desktop's
 * `src/libsync/pushnotifications.cpp` does: the user name, then the app password, as two text
 * frames, and waits for `authenticated`. The time (ms, wall clock: `performance.timeOrigin +
 * performance.now()`, comparable across processes) of every `notify_activity` is recorded.
 *
 * Messages from the bench: `connect` (open and authenticate the given sockets, at most
 * `concurrency` handshakes at once), `reset` (forget the frames so far), `report` (send the
 * frames), `close` (close every socket and exit).
 */
import WebSocket from "ws";

export interface ClientAccount {
  uid: string;
  secret: string;
  /** The websocket URL of the node this socket opens on. */
  url: string;
}

export type ToClients =
  | { type: "connect"; accounts: ClientAccount[]; concurrency: number }
  | { type: "reset" }
  | { type: "report" }
  | { type: "close" };

export type FromClients =
  | { type: "connected"; authenticated: number; failed: number; firstError?: string }
  | { type: "report"; sockets: Array<{ uid: string; frames: number[] }>; closedEarly: number; otherFrames: number }
  | { type: "closed" };

const MESSAGE_ACTIVITY = "notify_activity";
const now = () => performance.timeOrigin + performance.now();

interface Client {
  uid: string;
  ws: WebSocket;
  frames: number[];
  closed: boolean;
}

const clients: Client[] = [];
let otherFrames = 0;

function send(message: FromClients): void {
  process.send?.(message);
}

/** Opens one socket and authenticates it; resolves with the error text when it did not end `authenticated`. */
function open(account: ClientAccount): Promise<string | undefined> {
  return new Promise((resolve) => {
    const ws = new WebSocket(account.url, { perMessageDeflate: false });
    const client: Client = { uid: account.uid, ws, frames: [], closed: false };
    let authenticated = false;
    ws.on("open", () => {
      ws.send(account.uid);
      ws.send(account.secret);
    });
    ws.on("message", (data) => {
      const text = String(data);
      if (!authenticated) {
        if (text === "authenticated") {
          authenticated = true;
          clients.push(client);
          resolve(undefined);
        } else {
          resolve(`answered ${JSON.stringify(text)}`);
          ws.terminate();
        }
        return;
      }
      if (text === MESSAGE_ACTIVITY) client.frames.push(now());
      else otherFrames++;
    });
    ws.on("error", (error) => {
      if (!authenticated) resolve(error.message);
    });
    ws.on("close", (code) => {
      client.closed = true;
      if (!authenticated) resolve(`closed with ${code}`);
    });
  });
}

async function connect(accounts: ClientAccount[], concurrency: number): Promise<void> {
  let next = 0;
  let failed = 0;
  let firstError: string | undefined;
  const lane = async () => {
    while (next < accounts.length) {
      const error = await open(accounts[next++]!);
      if (error !== undefined) {
        failed++;
        firstError ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
  send({ type: "connected", authenticated: accounts.length - failed, failed, ...(firstError ? { firstError } : {}) });
}

async function closeAll(): Promise<void> {
  await Promise.all(
    clients.map(
      (client) =>
        new Promise<void>((resolve) => {
          if (client.closed || client.ws.readyState === WebSocket.CLOSED) return resolve();
          const timer = setTimeout(() => {
            client.ws.terminate();
            resolve();
          }, 2000);
          client.ws.once("close", () => {
            clearTimeout(timer);
            resolve();
          });
          client.ws.close();
        }),
    ),
  );
}

process.on("message", (message: ToClients) => {
  if (message.type === "connect") void connect(message.accounts, message.concurrency);
  else if (message.type === "reset") {
    for (const client of clients) client.frames = [];
    otherFrames = 0;
  } else if (message.type === "report") {
    send({
      type: "report",
      sockets: clients.map((c) => ({ uid: c.uid, frames: c.frames })),
      closedEarly: clients.filter((c) => c.closed).length,
      otherFrames,
    });
  } else if (message.type === "close") {
    void closeAll().then(() => {
      send({ type: "closed" });
      process.disconnect?.();
    });
  }
});
// The bench went away: nothing holds this process.
process.on("disconnect", () => process.exit(0));
