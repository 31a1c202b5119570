import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import net from "node:net";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import type { ServerTimeouts } from "../../src/config/timeouts.js";
import { buildMetricsApp } from "../../src/http/metrics-listener.js";
import { HEALTH_READY_PATH } from "../../src/http/routes/health.js";
import { fileEvent } from "../activity/support.js";
import { eventually } from "../support/eventually.js";
import { appWithOwnStorage, holdTableLock, type OutageApp } from "../support/outage.js";
import { parseExposition } from "../support/prometheus.js";
import { accepted } from "../support/results.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

/**
 * Only the database's own errors mark it unavailable. A request body the client abandons (a reset
 * or a close mid-body) or that the request timeout cuts fails with ECONNRESET on the request
 * stream: the client's doing. Readiness stays 200, keystream_db_unavailable 0, no outage is
 * logged; a real outage, met by a request, still is.
 */

/**
 * The request timeout leaves the route time to start reading a body on a loaded machine: a request
 * cut before its body is read leaves no broken body to handle (see bodyBeingRead).
 */
const SHORT: ServerTimeouts = {
  headersMs: 400,
  requestMs: 5000,
  keepAliveMs: 400,
  connectionMs: 30_000,
  shutdownGraceMs: 1000,
};

interface LogLine {
  level: number;
  msg: string;
  event?: string;
}

describe("a client's broken request body is not a database outage", () => {
  let storage: TestStorage;
  let node: OutageApp;
  let listening: FastifyInstance;
  let metrics: FastifyInstance;
  let port: number;
  /** An administrator's Basic credentials: the events API reads its body only once they are checked. */
  let publisher: string;
  const lines: LogLine[] = [];
  const sockets: net.Socket[] = [];
  /** Every request the server received, in order. */
  const requests: IncomingMessage[] = [];

  before(async () => {
    storage = await createTestStorage();
    node = await appWithOwnStorage(storage, { statementMs: 200 });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    listening = await buildApp({
      services: { ...node.services, log: pino({ level: "info" }, sink) },
      timeouts: SHORT,
      sleep: async () => {},
    });
    listening.server.on("request", (request: IncomingMessage) => requests.push(request));
    await listening.listen({ host: "127.0.0.1", port: 0 });
    port = (listening.server.address() as net.AddressInfo).port;
    metrics = await buildMetricsApp(node.services);
    accepted(await node.services.users.create({ uid: "admin", password: "admin password", isAdmin: true }));
    const { secret } = accepted(await node.services.appPasswords.create("admin", "aborting client"));
    publisher = `Basic ${Buffer.from(`admin:${secret}`).toString("base64")}`;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await metrics.close();
    await listening.close();
    await node.close();
    await storage.cleanup();
  });

  /** Sends the head of a POST announcing `length` bytes and the first part of its body. */
  function startBody(
    target: string,
    contentType: string,
    length: number,
    start: string,
    headers: Record<string, string> = {},
  ): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1");
      sockets.push(socket);
      socket.on("error", () => undefined);
      socket.once("error", reject);
      socket.once("connect", () => {
        socket.write(
          `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nContent-Length: ${length}\r\n` +
            Object.entries(headers)
              .map(([name, value]) => `${name}: ${value}\r\n`)
              .join("") +
            `\r\n${start}`,
        );
        resolve(socket);
      });
    });
  }

  /**
   * Sends the start of a body (startBody) and waits until the server reads it: the request stream
   * flows once the route's body parser consumes it. A reset that reaches the server before it has
   * read the request loses the request (the kernel drops unread data on a RST), and a close before
   * the route reads the body leaves no body to break: then no broken body is handled at all.
   */
  async function bodyBeingRead(...body: Parameters<typeof startBody>): Promise<net.Socket> {
    const count = requests.length;
    const socket = await startBody(...body);
    await eventually("the server reads the body", () => requests[count]?.readableFlowing === true);
    return socket;
  }

  /** Waits until the server has handled one more broken body (its info line), or an outage was logged. */
  async function handled(before: number): Promise<void> {
    await eventually(
      "the server handled the broken body",
      () =>
        lines.filter((line) => line.event === "request_aborted").length > before ||
        node.log.events("database_unavailable").length > 0,
    );
  }

  const aborted = () => lines.filter((line) => line.event === "request_aborted").length;

  async function assertNoOutage(): Promise<void> {
    assert.deepEqual(node.log.events("database_unavailable"), [], "no outage logged");
    assert.equal(node.storage.availability.unavailable, false);
    const ready = await listening.inject({ method: "GET", url: HEALTH_READY_PATH });
    assert.equal(ready.statusCode, 200, ready.body);
    const scraped = parseExposition((await metrics.inject({ method: "GET", url: "/metrics" })).body);
    assert.equal(scraped.value("keystream_db_unavailable"), 0);
    assert.equal(scraped.value("keystream_db_outages_total"), 0);
    assert.deepEqual(
      lines.filter((line) => line.level >= 50),
      [],
      "nothing logged at error level",
    );
  }

  const bodies = (): Array<{ target: string; type: string; start: string; headers: Record<string, string> }> => [
    { target: "/index.php/login", type: "application/x-www-form-urlencoded", start: "user=", headers: {} },
    {
      target: "/index.php/apps/oauth2/api/v1/token",
      type: "application/x-www-form-urlencoded",
      start: "grant_type=",
      headers: {},
    },
    {
      target: "/index.php/apps/activity/api/v2/events",
      type: "application/json",
      start: '[{"app":',
      headers: { authorization: publisher },
    },
  ];

  it("a client resetting its connection mid-body is no outage: readiness stays 200, the outage gauge 0", async () => {
    for (const body of bodies()) {
      const count = aborted();
      const socket = await bodyBeingRead(body.target, body.type, 100_000, body.start, body.headers);
      // The server is reading the body: reset (TCP RST).
      socket.resetAndDestroy();
      await handled(count);
    }
    await assertNoOutage();
  });

  it("a client closing its connection mid-body (FIN) is no outage", async () => {
    for (const body of bodies()) {
      const count = aborted();
      const socket = await bodyBeingRead(body.target, body.type, 100_000, body.start, body.headers);
      socket.end();
      await handled(count);
    }
    await assertNoOutage();
  });

  it("a body cut by the request timeout is answered 408 and is no outage", { timeout: 20_000 }, async () => {
    const count = aborted();
    let received = "";
    const socket = await bodyBeingRead("/index.php/login", "application/x-www-form-urlencoded", 100_000, "user=");
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      received += chunk;
    });
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    // A byte now and then, never the whole body: only the request timeout ends it.
    const trickle = setInterval(() => socket.writable && socket.write("u"), 100);
    await closed;
    clearInterval(trickle);
    assert.ok(received === "" || received.startsWith("HTTP/1.1 408"), `closed with ${JSON.stringify(received.slice(0, 40))}`);
    await handled(count);
    await assertNoOutage();
  });

  it("a real database outage met by a request still makes readiness 503 and counts one outage", async () => {
    const release = await holdTableLock(storage, "activity");
    try {
      // Publishing writes an activity: it waits for the lock past the statement timeout.
      const page = await listening.inject({
        method: "POST",
        url: "/index.php/apps/activity/api/v2/events",
        headers: { authorization: publisher, "content-type": "application/json" },
        payload: [fileEvent("admin")],
      });
      assert.equal(page.statusCode, 503, page.body);
      assert.equal((await listening.inject({ method: "GET", url: HEALTH_READY_PATH })).statusCode, 503);
      const scraped = parseExposition((await metrics.inject({ method: "GET", url: "/metrics" })).body);
      assert.equal(scraped.value("keystream_db_unavailable"), 1);
      assert.equal(scraped.value("keystream_db_outages_total"), 1);
      assert.equal(node.log.events("database_unavailable").length, 1);
    } finally {
      await release();
    }
    await eventually(
      "ready again",
      async () => (await listening.inject({ method: "GET", url: HEALTH_READY_PATH })).statusCode === 200,
    );
  });
});
