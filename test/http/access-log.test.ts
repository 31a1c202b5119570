import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { createOAuthTestApp, exchangeCode, issueCode, TOKEN } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";

describe("access log", () => {
  let t: TestApp;
  const lines: Array<Record<string, unknown>> = [];
  let logged: Awaited<ReturnType<typeof buildApp>>;

  before(async () => {
    t = await createOAuthTestApp();
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

  it("a code exchange is one line: the request with its OAuth event; a replay adds its warning on a line of its own, the refusal rides on the access line", async () => {
    const on = { ...t, app: logged };
    const code = await issueCode(on);
    lines.length = 0;
    assert.equal((await exchangeCode(on, code)).statusCode, 200);
    type Line = {
      reqId?: string;
      level: number;
      msg: string;
      event?: string;
      outcome?: string;
      req?: { url: string };
      res?: { statusCode: number };
    };
    const exchange = lines as Line[];
    assert.equal(exchange.length, 1, JSON.stringify(exchange));
    assert.equal(exchange[0]?.req?.url, TOKEN);
    assert.equal(exchange[0]?.res?.statusCode, 200);
    assert.equal(exchange[0]?.event, "oauth2_code_redeemed");
    assert.equal(exchange[0]?.outcome, "tokens issued");
    assert.match(exchange[0]?.msg ?? "", /An authorization code has been used by the client/);

    lines.length = 0;
    assert.equal((await exchangeCode(on, code)).statusCode, 400);
    const replay = lines as Line[];
    assert.equal(replay.length, 2, JSON.stringify(replay));
    const warning = replay.find((line) => line.event === "oauth2_code_replayed");
    const access = replay.find((line) => line.res !== undefined);
    assert.equal(warning?.level, 40);
    assert.equal(access?.res?.statusCode, 400);
    // The refusal's reason rides on the access line, as the redemption's event does.
    assert.equal(access?.event, "oauth2_request_refused");
    assert.equal((access as { error?: string } | undefined)?.error, "invalid_grant");
    assert.equal(access?.msg, "OAuth request refused: invalid_grant");
    assert.equal(warning?.reqId, access?.reqId, "both lines carry the request's id");
  });
});
