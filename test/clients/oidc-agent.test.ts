import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { ManualClock } from "../../src/clock.js";
import { HostSettings } from "../../src/config/host-settings.js";
import { createServices, type Services } from "../../src/services.js";
import { addClient, PASSWORD, type TestClient } from "../oauth/support.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

/**
 * Debian's `oidc-agent-cli` 4.2.6, unmodified, signs in to Keystream with the device authorization
 * grant (RFC 8628): `oidc-gen --flow=device` with a client registered by the administrator asks the
 * device authorization endpoint (client id and secret by HTTP Basic), prints the verification URI
 * and the user code, and polls the token endpoint; the person approves on the verification page
 * (here through HTTP, as a browser would post it); `oidc-token` then hands out an access token that
 * UserInfo accepts. The agent runs with a temporary home, on its own socket, stopped by its PID.
 */

const OIDC_GEN = "/usr/bin/oidc-gen";
const execFileAsync = promisify(execFile);

/** The wall clock, for a server whose client polls in real seconds (RFC 8628 §3.5's interval). */
class WallClock extends ManualClock {
  override nowSeconds(): number {
    return Math.floor(Date.now() / 1000);
  }
}

const CLIENT: TestClient = {
  name: "oidc-agent",
  clientId: "oidcagentclientid0123456789abcdefghijklmnopq",
  secret: "oidcagentsecret0123456789abcdefghijklmnopqrstu",
  redirectUri: "http://localhost:4242/",
};
const ACCOUNT = "keystream-test";

function skipReason(): string | false {
  return fs.existsSync(OIDC_GEN) ? false : "oidc-agent-cli is not installed (test/clients/install.sh installs it)";
}

/** Waits until `read()` matches `pattern` (the output of a running child), at most `ms`. */
async function waitForOutput(read: () => string, pattern: RegExp, ms: number, what: string): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const match = pattern.exec(read());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`${what}: no ${pattern} within ${ms} ms; output:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("oidc-agent 4.2.6: oidc-gen --flow=device with a registered client", { skip: skipReason() }, () => {
  let storage: TestStorage;
  let services: Services;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let baseUrl: string;
  let home: string;
  let agentEnv: NodeJS.ProcessEnv;
  let agentPid: number | undefined;

  before(async () => {
    storage = await createTestStorage();
    services = createServices({
      storage: storage.storage,
      dataDir: storage.dataDir,
      clock: new WallClock(),
      settings: new HostSettings(storage.dataDir),
      log: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
    });
    app = await buildApp({ services, sleep: async () => {} });
    await app.ready();
    baseUrl = (await app.listen({ host: "127.0.0.1", port: 0 })).replace(/\/$/, "");
    await services.users.create({ uid: "alice", password: PASSWORD, displayName: "Alice Liddell", email: "alice@example.com" });
    await addClient({ services } as Parameters<typeof addClient>[0], CLIENT);

    home = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-oidc-agent-"));
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), TMPDIR: home };
    // The agent daemonizes and prints where it listens (--json): its socket and PID.
    const { stdout } = await execFileAsync("oidc-agent", ["--json", "--socket-path", path.join(home, "agent-XXXXXX", "sock")], {
      env,
    });
    const started = JSON.parse(stdout) as { socket: string; dpid: number };
    agentPid = started.dpid;
    agentEnv = { ...env, OIDC_SOCK: started.socket, OIDCD_PID: String(started.dpid), OIDC_ENCRYPTION_PW: "agent test password" };
  });

  after(async () => {
    if (agentPid !== undefined) {
      try {
        process.kill(agentPid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    await app?.close();
    await storage?.cleanup();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it("oidc-gen signs in through the device flow approved on the page, and oidc-token yields a token UserInfo accepts", async () => {
    const issuer = `${baseUrl}/index.php/apps/oauth2`;
    let output = "";
    const gen: ChildProcess = spawn(
      OIDC_GEN,
      [
        ACCOUNT,
        "--flow=device",
        `--issuer=${issuer}`,
        `--client-id=${CLIENT.clientId}`,
        `--client-secret=${CLIENT.secret}`,
        "--scope=openid profile offline_access",
        "--pw-env",
        "--confirm-default",
        "--prompt=none",
        "--no-url-call",
      ],
      { env: agentEnv, stdio: ["pipe", "pipe", "pipe"] },
    );
    gen.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    gen.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => gen.on("close", (code) => resolve(code)));
    try {
      const shown = await waitForOutput(() => output, /visit:\s*(\S+)\s+And enter the code:\s*([A-Z-]+)/, 30_000, "oidc-gen");
      const [, verificationUri, userCode] = shown as unknown as [string, string, string];
      assert.equal(verificationUri, `${baseUrl}/index.php/apps/oauth2/device`);

      // The person: logs in, enters the code the terminal showed, approves.
      const browser = new FormClient(app);
      assert.equal((await browser.login("alice", PASSWORD)).statusCode, 303);
      const page = await browser.get("/index.php/apps/oauth2/device");
      const confirmation = await browser.post("/index.php/apps/oauth2/device", {
        requesttoken: requestTokenOf(page.body),
        user_code: userCode,
      });
      assert.match(confirmation.body, /The “oidc-agent” application on a device/);
      const approved = await browser.post("/index.php/apps/oauth2/device", {
        requesttoken: requestTokenOf(confirmation.body),
        user_code: userCode,
        decision: "approve",
      });
      assert.match(approved.body, /id="device-approved"/);

      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([
        exited,
        new Promise<"timeout">((resolve) => {
          timer = setTimeout(() => resolve("timeout"), 60_000);
        }),
      ]);
      clearTimeout(timer);
      assert.equal(code, 0, `oidc-gen exit: ${code}\n${output}`);
    } finally {
      if (gen.exitCode === null && gen.pid !== undefined) gen.kill("SIGTERM");
    }

    const { stdout: token } = await execFileAsync("oidc-token", [ACCOUNT], { env: agentEnv });
    const accessToken = token.trim();
    assert.match(accessToken, /^[A-Za-z0-9]{64}$/, token);
    const info = await fetch(`${baseUrl}/index.php/apps/oauth2/api/v1/userinfo`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    assert.equal(info.status, 200);
    const claims = (await info.json()) as { sub: string; name: string };
    assert.equal(claims.sub, "alice");
    assert.equal(claims.name, "Alice Liddell");
  });
});
