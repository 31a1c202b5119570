import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import { DEFAULT_SERVER_TIMEOUTS, readTimeouts, type ServerTimeouts } from "../../src/config/timeouts.js";
import { createTestApp, type TestApp } from "../support/app.js";

/**
 * Security review #11: a client that sends its body (or headers) a byte at a time, or opens a
 * keep-alive connection and goes quiet, is disconnected by the server. The timeouts are small
 * here so the test runs in seconds; what is asserted is that the server closes the socket (the
 * client never does), not how fast.
 */
const SHORT: ServerTimeouts = {
  headersMs: 400,
  requestMs: 800,
  keepAliveMs: 400,
  connectionMs: 30_000,
  shutdownGraceMs: 1000,
};

interface Observed {
  /** Resolves when the server ends the connection, with what it sent. */
  closed: Promise<string>;
  socket: net.Socket;
}

/** Every socket a test opened: destroyed at the end, so a failing test cannot keep the run alive. */
const opened: net.Socket[] = [];

function connect(port: number): Promise<Observed> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    opened.push(socket);
    let received = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      received += chunk;
    });
    const closed = new Promise<string>((done) => socket.once("close", () => done(received)));
    socket.once("error", () => {});
    socket.once("connect", () => resolve({ socket, closed }));
    socket.once("error", reject);
  });
}

/** Writes one byte of `text` every 100 ms until the server closes the socket (or the text ends). */
function trickle(socket: net.Socket, text: string): void {
  let index = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || index >= text.length) return clearInterval(timer);
    socket.write(text[index++]!);
  }, 100);
  socket.once("close", () => clearInterval(timer));
}

describe("HTTP timeouts (security review #11)", () => {
  let t: TestApp;
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    t = await createTestApp();
    app = await buildApp({ services: t.services, timeouts: SHORT, sleep: async () => {} });
    await app.listen({ host: "127.0.0.1", port: 0 });
    port = (app.server.address() as net.AddressInfo).port;
  });
  after(async () => {
    for (const socket of opened) socket.destroy();
    await app.close();
    await t.close();
  });

  it("a request whose body arrives a byte at a time is cut off by the request timeout, while other connections are served", {
    timeout: 20_000,
  }, async () => {
    const slow = await connect(port);
    slow.socket.write(
      "POST /index.php/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n",
    );
    trickle(slow.socket, "u".repeat(100_000));
    // A normal request on another connection, while the slow one is in progress.
    const normal = await fetch(`http://127.0.0.1:${port}/status.php`);
    assert.equal(normal.status, 200);
    const answer = await slow.closed;
    assert.ok(answer === "" || answer.startsWith("HTTP/1.1 408"), `closed with ${JSON.stringify(answer.slice(0, 40))}`);
  });

  it("a request whose headers arrive a byte at a time is cut off by the headers timeout", { timeout: 20_000 }, async () => {
    const slow = await connect(port);
    trickle(slow.socket, `GET /status.php HTTP/1.1\r\nHost: x\r\nX-Padding: ${"p".repeat(10_000)}\r\n\r\n`);
    const answer = await slow.closed;
    assert.ok(answer === "" || answer.startsWith("HTTP/1.1 408"), `closed with ${JSON.stringify(answer.slice(0, 40))}`);
  });

  it("an idle keep-alive connection is closed after the keep-alive timeout", { timeout: 20_000 }, async () => {
    const idle = await connect(port);
    idle.socket.write("GET /status.php HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
    const answer = await idle.closed;
    assert.match(answer, /^HTTP\/1\.1 200 /, "the request was answered, then the idle connection closed");
    assert.match(answer, /keep-alive/i);
  });
});

describe("timeout settings (KEYSTREAM_*_SECONDS)", () => {
  it("timeouts come from the environment in seconds, with defaults, and a bad or zero value is refused naming its variable", () => {
    assert.deepEqual(readTimeouts({}), DEFAULT_SERVER_TIMEOUTS);
    const set = readTimeouts({
      KEYSTREAM_HEADERS_TIMEOUT_SECONDS: "5",
      KEYSTREAM_REQUEST_TIMEOUT_SECONDS: "12.5",
      KEYSTREAM_KEEP_ALIVE_TIMEOUT_SECONDS: "61",
      KEYSTREAM_CONNECTION_TIMEOUT_SECONDS: "90",
      KEYSTREAM_SHUTDOWN_GRACE_SECONDS: "3",
    });
    assert.deepEqual(set, {
      headersMs: 5000,
      requestMs: 12_500,
      keepAliveMs: 61_000,
      connectionMs: 90_000,
      shutdownGraceMs: 3000,
    });
    for (const value of ["0", "-1", "abc", "1e3", "100000"]) {
      assert.throws(() => readTimeouts({ KEYSTREAM_REQUEST_TIMEOUT_SECONDS: value }), /KEYSTREAM_REQUEST_TIMEOUT_SECONDS/);
    }
    assert.throws(
      () => readTimeouts({ KEYSTREAM_HEADERS_TIMEOUT_SECONDS: "90" }),
      /KEYSTREAM_HEADERS_TIMEOUT_SECONDS must not exceed KEYSTREAM_REQUEST_TIMEOUT_SECONDS/,
    );
  });
});
