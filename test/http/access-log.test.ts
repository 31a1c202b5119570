import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { createTestApp, type TestApp } from "../support/app.js";

describe("access log", () => {
  let t: TestApp;
  const lines: Array<Record<string, unknown>> = [];
  let logged: Awaited<ReturnType<typeof buildApp>>;

  before(async () => {
    t = await createTestApp();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    // The same services behind an app whose log is captured.
    logged = await buildApp({ services: { ...t.services, log: pino({ level: "info" }, sink) }, sleep: async () => {} });
    await logged.ready();
  });
  after(async () => {
    await logged.close();
    await t.close();
  });

  it("writes one line per request, when it is answered, with method, URL, status and time", async () => {
    lines.length = 0;
    const response = await logged.inject({ url: "/status.php" });
    assert.equal(response.statusCode, 200);
    const missing = await logged.inject({ url: "/no/such/page" });
    assert.equal(missing.statusCode, 404);

    const requestLines = lines.filter((line) => line.req !== undefined || line.res !== undefined);
    assert.equal(requestLines.length, 2, "one line per request, not Fastify's two");
    const [status, notFound] = requestLines as Array<{
      req: { method: string; url: string };
      res: { statusCode: number };
      responseTime: number;
      msg: string;
    }>;
    assert.deepEqual([status?.req.method, status?.req.url, status?.res.statusCode], ["GET", "/status.php", 200]);
    assert.deepEqual([notFound?.req.url, notFound?.res.statusCode], ["/no/such/page", 404]);
    assert.equal(status?.msg, "request completed");
    assert.ok(typeof status?.responseTime === "number" && status.responseTime >= 0);
    assert.ok(!lines.some((line) => line.msg === "incoming request"));
  });
});
