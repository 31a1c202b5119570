import assert from "node:assert/strict";
import net from "node:net";
import { describe, it } from "node:test";
import { ServerProcess } from "../support/server-process.js";
import { createTestStorage } from "../support/storage.js";

/**
 * Fault 4: a SIGTERMed server must exit even while clients hold connections open. Idle ones are
 * closed at once; a request in flight may finish within KEYSTREAM_SHUTDOWN_GRACE_SECONDS, after
 * which its connection is cut. Through the real `node dist/main.js`.
 */

interface Connection {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves when the connection is closed, with everything the server sent. */
  closed: Promise<string>;
  /** Resolves once the server's output contains `text`. */
  waitFor(text: string): Promise<void>;
}

function connect(url: string): Promise<Connection> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let data = "";
    const waiters: Array<() => void> = [];
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      data += chunk;
      for (const wake of waiters.splice(0)) wake();
    });
    const closed = new Promise<string>((done) => socket.once("close", () => done(data)));
    socket.on("error", () => {});
    socket.once("connect", () =>
      resolve({
        socket,
        received: () => data,
        closed,
        waitFor: async (text) => {
          while (!data.includes(text)) {
            if (socket.destroyed) throw new Error(`closed before "${text}"; got ${JSON.stringify(data)}`);
            await new Promise<void>((wake) => {
              waiters.push(wake);
              socket.once("close", wake);
            });
          }
        },
      }),
    );
    socket.once("error", reject);
  });
}

const BODY = "user=nobody&password=wrong&requesttoken=none";

/** A login POST whose headers are in (the server said 100 Continue) and whose body is not. */
async function requestInFlight(url: string): Promise<Connection> {
  const connection = await connect(url);
  connection.socket.write(
    `POST /index.php/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${BODY.length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await connection.waitFor("HTTP/1.1 100 Continue");
  return connection;
}

describe("shutdown with client connections open (fault 4)", () => {
  it("on SIGTERM idle connections are closed at once and a request in flight still finishes, then the process exits 0", {
    timeout: 60_000,
  }, async () => {
    const storage = await createTestStorage();
    await storage.storage.close();
    // A grace period far longer than the test may take: only the idle rule can close those.
    const server = new ServerProcess(storage, "server", { KEYSTREAM_SHUTDOWN_GRACE_SECONDS: "3600" });
    try {
      const url = await server.url();
      const silent = await connect(url); // connected, never sends a byte
      const keptAlive = await connect(url);
      keptAlive.socket.write("GET /status.php HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
      await keptAlive.waitFor("\r\n\r\n{");
      const inFlight = await requestInFlight(url);

      server.child.kill("SIGTERM");
      await server.waitFor(/SIGTERM received/);
      await silent.closed;
      assert.match(await keptAlive.closed, /^HTTP\/1\.1 200 /);
      assert.equal(inFlight.socket.destroyed, false, "the request in flight keeps its connection");
      assert.equal(server.child.exitCode, null, "the process waits for it");

      inFlight.socket.write(BODY);
      const answer = await inFlight.closed;
      assert.match(answer, /HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 403 /, "the request was answered");
      assert.deepEqual(await server.exited, { code: 0, signal: null }, server.stderr);
      assert.equal(server.logLines("shutdown grace period over: closing the connections left").length, 0);
    } finally {
      server.child.kill("SIGKILL");
      await storage.cleanup();
    }
  });

  it("on SIGTERM a request still in flight after the grace period is cut off, and the process exits 0", {
    timeout: 60_000,
  }, async () => {
    const storage = await createTestStorage();
    await storage.storage.close();
    const server = new ServerProcess(storage, "server", { KEYSTREAM_SHUTDOWN_GRACE_SECONDS: "1" });
    try {
      const url = await server.url();
      // Its body never comes (the request timeout, 60 s by default, is far away).
      const stuck = await requestInFlight(url);
      server.child.kill("SIGTERM");
      assert.equal(await stuck.closed, "HTTP/1.1 100 Continue\r\n\r\n", "cut off without an answer");
      assert.deepEqual(await server.exited, { code: 0, signal: null }, server.stderr);
      const [line] = server.logLines("shutdown grace period over: closing the connections left");
      assert.equal(line?.graceMs, 1000);
      assert.equal(line?.connections, 1);
      assert.match(server.stdout, /"msg":"Keystream stopped"/);
    } finally {
      server.child.kill("SIGKILL");
      await storage.cleanup();
    }
  });
});
