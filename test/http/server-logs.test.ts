import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseExposition } from "../support/prometheus.js";
import { ServerProcess } from "../support/server-process.js";
import { createTestStorage } from "../support/storage.js";

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** issue 18, through the real server process (node dist/main.js): its log, request ids, the metrics listener. */
describe("the server process's log and metrics listener", () => {
  it("every line the server writes on stdout is JSON with an ISO time and a level name, request ids match X-Request-Id, and the metrics listen apart from the public port", async () => {
    const storage = await createTestStorage();
    await storage.storage.close();
    const server = new ServerProcess(storage, "server", { KEYSTREAM_METRICS_PORT: "0" });
    try {
      const url = await server.url();
      const metricsUrl = String(JSON.parse((await server.waitFor(/^\{.*"msg":"metrics and health listening".*\}$/m))[0]).url);
      assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);

      const missing = await fetch(`${url}/no/such/page`);
      assert.equal(missing.status, 404);
      const requestId = String(missing.headers.get("x-request-id"));
      assert.match(requestId, /^[0-9a-f-]{36}$/);
      assert.equal((await fetch(`${url}/status.php`)).status, 200);

      // Metrics on their own listener, not on the public one; health on both.
      assert.equal((await fetch(`${url}/metrics`)).status, 404);
      const scraped = await fetch(metricsUrl);
      assert.equal(scraped.status, 200);
      const metrics = parseExposition(await scraped.text());
      assert.equal(
        metrics.value("keystream_http_request_duration_seconds_count", { route: "/status.php", status_code: "200" }),
        1,
      );
      assert.ok(metrics.find("process_cpu_user_seconds_total").length === 1, "prom-client's process metrics");
      assert.ok(metrics.find("nodejs_eventloop_lag_seconds").length === 1);
      for (const base of [url, metricsUrl.replace(/\/metrics$/, "")]) {
        assert.equal((await fetch(`${base}/health/live`)).status, 200, base);
        assert.equal((await fetch(`${base}/health/ready`)).status, 200, base);
      }

      await server.waitFor(new RegExp(`"reqId":"${requestId}".*"msg":"request completed"`));
      assert.deepEqual(await server.stop(), { code: 0, signal: null });
      const lines = server.stdout.split("\n").filter((line) => line !== "");
      assert.ok(lines.length >= 5, server.stdout);
      for (const line of lines) {
        const entry = JSON.parse(line) as { time?: unknown; level?: unknown; msg?: unknown };
        assert.match(String(entry.time), ISO_TIME, line);
        assert.ok(["trace", "debug", "info", "warn", "error", "fatal"].includes(String(entry.level)), line);
        assert.equal(typeof entry.msg, "string", line);
      }
      const messages = lines.map((line) => String((JSON.parse(line) as { msg: string }).msg));
      assert.ok(messages.some((m) => m.startsWith(`Keystream is running at ${url}/`)));
      assert.ok(messages.some((m) => m.startsWith("SIGTERM received")));
      const ofRequest = lines.map((line) => JSON.parse(line) as { reqId?: string }).filter((e) => e.reqId === requestId);
      assert.ok(ofRequest.length >= 1, "the answered id is the logged one");
      // Probes every few seconds do not fill the log.
      assert.ok(!server.stdout.includes('"url":"/health/'), "health probes are not logged at info");
    } finally {
      server.child.kill("SIGKILL");
      await storage.cleanup();
    }
  });
});
