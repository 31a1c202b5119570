import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
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
import { FetchBrowser } from "../support/fetch-browser.js";
import { NavigatingBrowser } from "../support/navigating-browser.js";
import { runOcc } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

/**
 * Debian's `oidc-agent-cli` 4.2.6, unmodified, signs in to Keystream with the device authorization
 * grant (RFC 8628): `oidc-gen --flow=device` with a client registered by the administrator asks the
 * device authorization endpoint (client id and secret by HTTP Basic), prints the verification URI
 * and the user code, and polls the token endpoint; the person approves on the verification page
 * (here through HTTP, as a browser would post it); `oidc-token` then hands out an access token that
 * UserInfo accepts. And, with `oidc.dynamic_registration=loopback`, `oidc-gen` registers a client
 * of its own (RFC 7591) and signs in with the authorization code flow (below). The agent runs with a
 * temporary home, on its own socket, stopped by its PID.
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

/** A listening Keystream (alice, the registered client) and a running oidc-agent with its own home. */
interface Stage {
  storage: TestStorage;
  services: Services;
  app: Awaited<ReturnType<typeof buildApp>>;
  baseUrl: string;
  /** oidc-gen's and oidc-token's environment: the agent's socket, the encryption password. */
  agentEnv: NodeJS.ProcessEnv;
}

/**
 * Registers `before`/`after` hooks in the enclosing `describe`. `configure` runs on the fresh
 * storage before the server starts (an operator's `./occ` lines); the stage is filled in once
 * `before` has run.
 */
function stageWithAgent(configure?: (storage: TestStorage) => Promise<void>): Stage {
  const stage = {} as Stage;
  let home: string | undefined;
  let agentPid: number | undefined;

  before(async () => {
    stage.storage = await createTestStorage();
    await configure?.(stage.storage);
    stage.services = createServices({
      storage: stage.storage.storage,
      dataDir: stage.storage.dataDir,
      clock: new WallClock(),
      settings: new HostSettings(stage.storage.dataDir),
      log: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
    });
    stage.app = await buildApp({ services: stage.services, sleep: async () => {} });
    await stage.app.ready();
    stage.baseUrl = (await stage.app.listen({ host: "127.0.0.1", port: 0 })).replace(/\/$/, "");
    accepted(
      await stage.services.users.create({
        uid: "alice",
        password: PASSWORD,
        displayName: "Alice Liddell",
        email: "alice@example.com",
      }),
    );
    await addClient({ services: stage.services } as Parameters<typeof addClient>[0], CLIENT);

    home = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-oidc-agent-"));
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), TMPDIR: home };
    // The agent daemonizes and prints where it listens (--json): its socket and PID.
    const { stdout } = await execFileAsync("oidc-agent", ["--json", "--socket-path", path.join(home, "agent-XXXXXX", "sock")], {
      env,
    });
    const started = JSON.parse(stdout) as { socket: string; dpid: number };
    agentPid = started.dpid;
    stage.agentEnv = {
      ...env,
      OIDC_SOCK: started.socket,
      OIDCD_PID: String(started.dpid),
      OIDC_ENCRYPTION_PW: "agent test password",
    };
  });

  after(async () => {
    if (agentPid !== undefined) {
      try {
        process.kill(agentPid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    await stage.app?.close();
    await stage.storage?.cleanup();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });
  return stage;
}

/** Runs `oidc-gen` with `args`, collecting stdout and stderr together. */
function startOidcGen(args: string[], env: NodeJS.ProcessEnv) {
  let output = "";
  const gen: ChildProcess = spawn(OIDC_GEN, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  gen.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  gen.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  let ended = false;
  const exited = new Promise<number | null>((resolve) =>
    gen.on("close", (code) => {
      ended = true;
      resolve(code);
    }),
  );
  return {
    output: () => output,
    /** Waits until the output matches `pattern`, at most `ms`; fails at once when oidc-gen has ended without it. */
    async waitFor(pattern: RegExp, ms: number): Promise<RegExpExecArray> {
      const deadline = Date.now() + ms;
      for (;;) {
        const match = pattern.exec(output);
        if (match) return match;
        if (ended || Date.now() > deadline) {
          throw new Error(`oidc-gen: no ${pattern} ${ended ? "before it ended" : `within ${ms} ms`}; output:\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    /** The exit code, or "timeout" when it has not ended within `ms`. */
    async exit(ms: number): Promise<number | null | "timeout"> {
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([
        exited,
        new Promise<"timeout">((resolve) => {
          timer = setTimeout(() => resolve("timeout"), ms);
        }),
      ]);
      clearTimeout(timer);
      return code;
    },
    stop(): void {
      if (gen.exitCode === null && gen.pid !== undefined) gen.kill("SIGTERM");
    },
  };
}

/** `oidc-token <account>`'s access token, and UserInfo's answer to it. */
async function tokenAcceptedByUserInfo(stage: Stage, account = ACCOUNT): Promise<{ sub: string; name: string; email?: string }> {
  const { stdout: token } = await execFileAsync("oidc-token", [account], { env: stage.agentEnv });
  const accessToken = token.trim();
  assert.match(accessToken, /^[A-Za-z0-9]{64}$/, token);
  const info = await fetch(`${stage.baseUrl}/index.php/apps/oauth2/api/v1/userinfo`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  assert.equal(info.status, 200);
  return (await info.json()) as { sub: string; name: string; email?: string };
}

describe("oidc-agent 4.2.6: oidc-gen --flow=device with a registered client", { skip: skipReason() }, () => {
  const stage = stageWithAgent();

  it("oidc-gen signs in through the device flow approved on the page, and oidc-token yields a token UserInfo accepts", async () => {
    const { app, baseUrl } = stage;
    const gen = startOidcGen(
      [
        ACCOUNT,
        "--flow=device",
        `--issuer=${baseUrl}/index.php/apps/oauth2`,
        `--client-id=${CLIENT.clientId}`,
        `--client-secret=${CLIENT.secret}`,
        "--scope=openid profile offline_access",
        "--pw-env",
        "--confirm-default",
        "--prompt=none",
        "--no-url-call",
      ],
      stage.agentEnv,
    );
    try {
      const shown = await gen.waitFor(/visit:\s*(\S+)\s+And enter the code:\s*([A-Z-]+)/, 30_000);
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

      const code = await gen.exit(60_000);
      assert.equal(code, 0, `oidc-gen exit: ${code}\n${gen.output()}`);
    } finally {
      gen.stop();
    }

    const claims = await tokenAcceptedByUserInfo(stage);
    assert.equal(claims.sub, "alice");
    assert.equal(claims.name, "Alice Liddell");
  });
});

/** A TCP port nothing listens on now (oidc-agent's web server binds it on every IPv4 address). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The person's part of the code flow, in a browser (here an HTTP client with a cookie jar): opens
 * the authorization URL, logs in, reads the consent page (which must say the application
 * registered itself) and approves; answers where the browser is sent.
 */
async function approveAsSelfRegistered(baseUrl: string, authorizationUrl: URL): Promise<URL> {
  const browser = new FetchBrowser(baseUrl);
  const first = await browser.request(authorizationUrl.href);
  assert.equal(first.status, 303);
  const loginUrl = String(first.headers.get("location"));
  const loginPage = await (await browser.request(loginUrl)).text();
  const login = await browser.request("/index.php/login", {
    user: "alice",
    password: PASSWORD,
    requesttoken: requestTokenOf(loginPage),
    redirect_url: new URL(loginUrl, baseUrl).searchParams.get("redirect_url") as string,
  });
  assert.equal(login.status, 303);
  const consentUrl = String(login.headers.get("location"));
  const consentPage = await (await browser.request(consentUrl)).text();
  assert.match(consentPage, /id="oauth-consent"/);
  assert.match(consentPage, /id="oauth-self-registered"[^>]*>[^<]*registered itself/);
  const decision = await browser.request(consentUrl, { requesttoken: requestTokenOf(consentPage) });
  assert.equal(decision.status, 303);
  return new URL(String(decision.headers.get("location")));
}

/**
 * oidc-agent 4.2.6 registering itself (RFC 7591) in loopback mode, then the authorization code
 * flow: `oidc-gen` without `--client-id` registers at the registration endpoint that discovery
 * names (as `application_type` `web` first, with the loopback redirect URI it is given), has the
 * agent start its web server on that port, and prints the authorization URL; the person approves
 * in a browser, which is sent to the agent's web server, which exchanges the code
 * (indigo-dc/oidc-agent src/oidc-agent/httpserver/requestHandler.c). With `--no-webserver` the
 * person hands the address the browser ended on to `oidc-gen --codeExchange` instead.
 */
describe("oidc-agent 4.2.6: oidc-gen registers itself (oidc.dynamic_registration=loopback) and signs in with the code flow", {
  skip: skipReason(),
}, () => {
  const stage = stageWithAgent(async (storage) => {
    // The administrator's line from docs/openid-connect.md "Dynamic registration".
    const set = await runOcc(["config:system:set", "oidc.dynamic_registration", "--value=loopback"], storage);
    assert.equal(set.code, 0, set.stderr);
  });

  /** Runs `oidc-gen <account> --flow=code` without a client id to its end; answers the client id it registered. */
  async function registerAndSignIn(account: string, webserver: boolean): Promise<string> {
    const { baseUrl } = stage;
    const redirectUri = `http://localhost:${await freePort()}`;
    const gen = startOidcGen(
      [
        account,
        "--flow=code",
        `--issuer=${baseUrl}/index.php/apps/oauth2`,
        `--redirect-uri=${redirectUri}`,
        "--scope=openid offline_access profile email",
        "--pw-env",
        "--confirm-default",
        "--prompt=none",
        "--no-url-call",
        ...(webserver ? [] : ["--no-webserver"]),
      ],
      stage.agentEnv,
    );
    try {
      const shown = await gen.waitFor(/in a Browser of your choice:\s*(\S+)/, 30_000);
      const authorizationUrl = new URL(shown[1] as string);
      assert.equal(`${authorizationUrl.origin}${authorizationUrl.pathname}`, `${baseUrl}/index.php/apps/oauth2/authorize`);
      const clientId = authorizationUrl.searchParams.get("client_id") as string;
      assert.notEqual(clientId, CLIENT.clientId, "a client of its own");
      assert.equal(authorizationUrl.searchParams.get("redirect_uri"), redirectUri);

      const callback = await approveAsSelfRegistered(baseUrl, authorizationUrl);
      assert.equal(callback.origin, redirectUri, "sent back to the port oidc-gen asked for");
      assert.ok(callback.searchParams.get("code"));

      if (webserver) {
        // The browser follows the redirect to the agent, which exchanges the code.
        const agentPage = await new NavigatingBrowser().request(callback.href);
        const agentText = await agentPage.text();
        assert.equal(agentPage.status, 200, agentText);
        assert.match(agentText, /Successfully performed code exchange/);
      } else {
        assert.match(gen.output(), /oidc-gen --codeExchange='<url>'/);
        const exchanged = await execFileAsync(OIDC_GEN, [`--codeExchange=${callback.href}`, "--pw-env", "--prompt=none"], {
          env: stage.agentEnv,
        });
        assert.match(exchanged.stdout, /success/);
      }
      const code = await gen.exit(60_000);
      assert.equal(code, 0, `oidc-gen exit: ${code}\n${gen.output()}`);
      return clientId;
    } finally {
      gen.stop();
    }
  }

  /** The client as `./occ oauth2:list-clients --output=json` lists it. */
  async function listed(clientId: string): Promise<Record<string, unknown> | undefined> {
    const result = await runOcc(["oauth2:list-clients", "--output=json"], stage.storage);
    assert.equal(result.code, 0, result.stderr);
    const clients = Object.values(JSON.parse(result.stdout) as Record<string, Record<string, unknown>>);
    return clients.find((client) => client["client-id"] === clientId);
  }

  it("oidc-gen registers, the consent page says so, the agent's web server gets the code, and oidc-token yields a token UserInfo accepts", async () => {
    const clientId = await registerAndSignIn(ACCOUNT, true);

    const claims = await tokenAcceptedByUserInfo(stage);
    assert.equal(claims.sub, "alice");
    assert.equal(claims.name, "Alice Liddell");
    assert.equal(claims.email, "alice@example.com");

    const client = await listed(clientId);
    assert.equal(client?.["self-registered"], true);
    // The name oidc-agent sends (`oidc-agent:<account>-<host name>`) and the start of its client id.
    assert.equal(client?.name, `oidc-agent:${ACCOUNT}-${os.hostname()} (${clientId.slice(0, 8)})`);
    assert.equal(client?.["redirect-url"], "http://localhost:*/");
    assert.ok(client?.["last-used-at"], "the code exchange counts as a use");
  });

  it("without the agent's web server (--no-webserver), oidc-gen --codeExchange with the address the browser ended on completes the sign-in", async () => {
    const account = "keystream-manual";
    const clientId = await registerAndSignIn(account, false);
    assert.equal((await tokenAcceptedByUserInfo(stage, account)).sub, "alice");
    assert.equal((await listed(clientId))?.["self-registered"], true);
  });
});
