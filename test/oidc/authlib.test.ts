import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { authorizeInBrowser, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FetchBrowser } from "../support/fetch-browser.js";
import { isLoggedIn, listeningOidcApp } from "./rp-support.js";
import { POST_LOGOUT } from "./support.js";

const SCRIPT = fileURLToPath(new URL("./authlib_rp.py", import.meta.url));

/** The first Python that imports Authlib and requests (Debian's python3-authlib, python3-requests). */
function pythonWithAuthlib(): string | undefined {
  for (const candidate of ["/usr/bin/python3", "python3"]) {
    const probe = spawnSync(candidate, ["-c", "import authlib, requests"], { stdio: "ignore" });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

/** Reads the script's JSON lines one at a time. */
function lines(child: ChildProcessWithoutNullStreams): () => Promise<Record<string, string>> {
  const reader = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return async () => {
    const next = await reader.next();
    assert.ok(!next.done, "the relying party stopped early");
    return JSON.parse(next.value);
  };
}

describe("OpenID Connect with Python's Authlib: discovery → code + PKCE → ID token → UserInfo → refresh → logout", () => {
  const python = pythonWithAuthlib();
  let t: TestApp;
  let base: string;
  before(async () => {
    if (python) ({ t, base } = await listeningOidcApp());
  });
  after(() => t?.close());

  it("Authlib validates the ID token (signature, iss, aud, nonce, at_hash), reads UserInfo, refreshes and logs out", async (test) => {
    if (!python) {
      // In CI the package is installed (.ci/run): missing it there is a failure, not a skip.
      assert.ok(!process.env.CI, "python3-authlib (and python3-requests) must be installed in CI");
      test.skip("python3-authlib is not installed (apt-get install -y python3-authlib python3-requests)");
      return;
    }
    const issuer = `${base}/index.php/apps/oauth2`;
    const child = spawn(python, [SCRIPT, issuer, WEB_CLIENT.clientId, WEB_CLIENT.secret, WEB_CLIENT.redirectUri, POST_LOGOUT]);
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const next = lines(child);
    try {
      const authorize = await next();
      assert.equal(authorize.step, "authorize");
      const browser = new FetchBrowser(base);
      const callback = await authorizeInBrowser(browser, authorize.url as string);
      child.stdin.write(`${callback.href}\n`);

      const logout = await next();
      assert.equal(logout.step, "logout", stderr);
      assert.equal(await isLoggedIn(browser), true);
      const response = await browser.request(logout.url as string);
      child.stdin.write(`${response.headers.get("location")}\n`);
      assert.equal(await isLoggedIn(browser), false, "the end-session endpoint ended the Keystream session");

      const done = await next();
      assert.deepEqual(done, {
        step: "done",
        sub: "alice",
        nonce: done.nonce,
        email: "alice@example.com",
        refreshed_access_token_differs: true,
      });
      assert.equal(await exited, 0, stderr);
    } catch (error) {
      child.kill();
      throw new Error(`${(error as Error).message}\n--- relying party stderr ---\n${stderr}`);
    }
  });
});
