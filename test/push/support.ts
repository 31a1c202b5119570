import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import WebSocket from "ws";

/** A push client as nextcloud/desktop's pushnotifications.cpp is one: text frames in, text frames out. */
export class PushClient {
  private readonly frames: string[] = [];
  private readonly waiters: Array<() => void> = [];
  /** The close code, once the server closed the socket. */
  closeCode: number | undefined;
  readonly closed: Promise<number>;
  readonly opened: Promise<void>;

  constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      this.frames.push(String(data));
      this.wake();
    });
    this.closed = new Promise((resolve) =>
      ws.on("close", (code) => {
        this.closeCode = code;
        this.wake();
        resolve(code);
      }),
    );
    this.opened = new Promise((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
  }

  /** The next text frame from the server, or undefined when the socket closed first. */
  async next(): Promise<string | undefined> {
    for (;;) {
      const frame = this.frames.shift();
      if (frame !== undefined) return frame;
      if (this.closeCode !== undefined) return undefined;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Frames received and not yet read with next(). */
  get pending(): number {
    return this.frames.length;
  }

  send(text: string): void {
    this.ws.send(text);
  }

  /** Resolves once the server has answered a ping, so every frame sent before has been read. */
  roundTrip(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once("pong", () => resolve());
      this.ws.ping();
    });
  }

  close(): Promise<number> {
    if (this.closeCode === undefined) this.ws.close();
    return this.closed;
  }

  private wake(): void {
    for (const resume of this.waiters.splice(0)) resume();
  }
}

/** The app listening on a free port of 127.0.0.1; its websocket URL. */
export async function listenForPush(app: FastifyInstance): Promise<string> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/push/ws`;
}

/** Opens a socket and sends the user name and the password, as the desktop client does. */
export async function connectAs(url: string, user: string, password: string): Promise<PushClient> {
  const client = new PushClient(new WebSocket(url));
  await client.opened;
  client.send(user);
  client.send(password);
  return client;
}
