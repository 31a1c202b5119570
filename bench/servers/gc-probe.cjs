/**
 * Preloaded (`node --expose-gc -r bench/servers/gc-probe.cjs`) by bench/scenarios/footprint.ts: on
 * SIGUSR2 it collects all garbage, waits for the freed pages to go back, and writes the process's
 * RSS and V8 heap to $FOOTPRINT_PROBE_FILE as JSON.
 */
const fs = require("node:fs");

process.on("SIGUSR2", () => {
  globalThis.gc();
  setTimeout(() => {
    const status = fs.readFileSync("/proc/self/status", "utf8");
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]);
    const { heapUsed, heapTotal } = process.memoryUsage();
    fs.writeFileSync(process.env.FOOTPRINT_PROBE_FILE, JSON.stringify({ rssKb, heapUsed, heapTotal }));
  }, 500);
});
