import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assertBuilt, COMPILED_MAIN, childEnvironment, REPO_ROOT } from "../support/occ.js";
import { createTestStorage } from "../support/storage.js";
import { accepts, commandLineOf, descendantsOf, isAlive, SupervisedCommand } from "./support.js";

/**
 * Newcomer review F3: Docker's `CMD ["npm","start"]` or any supervisor that knows one PID sends
 * SIGTERM to npm alone. `npm start` ran `sh -c "tsc … && node dist/main.js"`: npm and sh died, the
 * server was reparented to PID 1 and kept the port. Now the script execs the server, so npm's own
 * forwarding of SIGTERM reaches it. Real processes: npm, the shell it spawns, the server.
 */
describe("npm start under a supervisor that signals one PID (real processes)", () => {
  it("SIGTERM to the npm process alone stops the server gracefully and npm exits 0", { timeout: 120_000 }, async () => {
    assertBuilt();
    const storage = await createTestStorage();
    await storage.storage.close();
    const npm = new SupervisedCommand("npm", ["start"], {
      cwd: REPO_ROOT,
      env: childEnvironment(storage, { HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info" }),
    });
    let below: number[] = [];
    try {
      const url = (await npm.waitFor(/Keystream is running at (http:\/\/127\.0\.0\.1:\d+)\//))[1] ?? "";
      assert.equal((await fetch(`${url}/status.php`)).status, 200);
      below = descendantsOf(npm.pid);
      assert.ok(
        below.some((pid) => commandLineOf(pid).includes("dist/main.js") || commandLineOf(pid).includes(COMPILED_MAIN)),
        `the server runs below npm: ${below.map((pid) => commandLineOf(pid).join(" ")).join("; ")}`,
      );

      process.kill(npm.pid, "SIGTERM");
      const { code, signal } = await npm.finished();

      assert.deepEqual({ code, signal }, { code: 0, signal: null }, npm.stderr);
      assert.match(npm.stdout, /SIGTERM received, finishing in-flight requests/);
      assert.match(npm.stdout, /Keystream stopped/);
      assert.deepEqual(
        below.filter(isAlive).map((pid) => commandLineOf(pid).join(" ")),
        [],
        "no process npm started outlives it",
      );
      assert.equal(await accepts(url), false, "the port is closed");
    } finally {
      for (const pid of [npm.pid, ...below]) if (isAlive(pid)) process.kill(pid, "SIGKILL");
      await storage.cleanup();
    }
  });
});
