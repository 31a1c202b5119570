import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { type ClientRun, pressWizardConnect, startClient } from "./harness/desktop.js";
import { proxyRequests } from "./harness/nginx.js";
import { interestingLines, readConfig, seedClientSettings, syncFolderOf } from "./harness/owncloud-client.js";
import { waitFor } from "./harness/processes.js";
import { escapeRegExp, httpsGet, note } from "./harness/scenario.js";
import { assertOnlyTheProbeSentTheAccountPassword, setUpTotpInBrowser } from "./harness/second-factor.js";
import { describeClientTest, Stage } from "./harness/stage.js";

/**
 * The unmodified ownCloud desktop client 2.11 (Debian `owncloud-client`) in its OpenID Connect
 * mode: with `oidc.root_discovery=true` the client finds `/.well-known/openid-configuration` at the
 * account root, and with `oidc.dynamic_registration=loopback` that document names a
 * `registration_endpoint`, so the client registers itself (RFC 7591; docs/upstream/desktop-clients.md
 * ownCloud client §2 and §6), signs in with its own client id (scope `openid offline_access email
 * profile`, `prompt=select_account consent`, PKCE S256, redirect `http://127.0.0.1:<port>`), syncs
 * files and refreshes after a restart with the registration it keeps in its keychain. The same
 * deployment as owncloud-desktop.test.ts (test/clients/harness/stage.ts); docs/openid-connect.md
 * "The ownCloud desktop client in OpenID Connect mode". The user has TOTP, entered in the browser
 * step after the password (harness/second-factor.ts).
 */

const BUILT_IN_CLIENT_ID = "xdXOt13JKxym1B1QcEncf2XDkLAexMBFwiT9j6EfhhHFJhs2KM9jbjTmf8JBXE69";
const USER = { uid: "alice", password: "correct horse battery staple", displayName: "Alice Example", email: "alice@example.org" };

describeClientTest("owncloud", "ownCloud desktop client 2.11 in its OpenID Connect mode (dynamic registration)", () => {
  const clientRuns: ClientRun[] = [];
  const client = () => clientRuns[clientRuns.length - 1]!;
  let registeredClientId = "";
  let totpSecret = "";
  const stage = Stage.inDescribe({
    workPrefix: "keystream-clients-oidc-",
    user: USER,
    // The stage publishes at least one (occ refuses an empty batch); this test reads none.
    activities: [
      {
        app: "files",
        type: "file_created",
        affecteduser: USER.uid,
        user: USER.uid,
        subject: "created_self",
        subjectparams: [{ type: "file", value: "/Holiday photos" }],
        object_type: "files",
        object_id: 7,
        object_name: "/Holiday photos",
      },
    ],
    stepTimeoutMs: 150_000,
    beforeStart: (keystream) => {
      // What an administrator runs (docs/openid-connect.md).
      keystream.occ(["config:system:set", "oidc.root_discovery", "--value=true"]);
      keystream.occ(["config:system:set", "oidc.dynamic_registration", "--value=loopback"]);
    },
    seedDesktop: seedClientSettings,
    clientRuns: () => clientRuns,
    interestingLines: (log) => [
      ...interestingLines(log),
      ...log
        .split("\n")
        .filter((line) => /register|registration|well-known/i.test(line))
        .slice(0, 20),
    ],
  });
  const step = (name: string, body: () => Promise<void>) => stage.step(name, body);

  const runClient = () => {
    const n = clientRuns.length + 1;
    const run = startClient(stage.processes, stage.desktop, {
      serverUrl: stage.publicUrl,
      trustDir: stage.pki.trustDir,
      logFile: path.join(stage.work, `client-${n}.log`),
      outputFile: path.join(stage.work, `client-${n}.out`),
    });
    clientRuns.push(run);
    return run;
  };

  step("the user sets up TOTP in personal settings: the account password over Basic is refused from then on", async () => {
    const appPassword = stage.keystream.occ(["user:add-app-password", USER.uid, "--name=client-test set-up"]).trim();
    ({ secret: totpSecret } = await setUpTotpInBrowser(stage, USER, appPassword));
  });

  step(
    "the root discovery document names the registration endpoint; the client registers itself and opens the authorize URL with its own id",
    async () => {
      const discovery = JSON.parse(
        (await httpsGet(`${stage.publicUrl}/.well-known/openid-configuration`, stage.pki.caCert)).body,
      );
      assert.equal(discovery.registration_endpoint, `${stage.publicUrl}/index.php/apps/oauth2/api/v1/register`);

      runClient();
      const url = new URL(
        await waitFor("the client to open a browser (xdg-open shim)", () => stage.desktop.openedUrls()[0], 60_000),
      );
      const registration = await waitFor(
        "the registration in Keystream's log",
        () => stage.keystream.log().find((e) => e.event === "oauth2_client_registered"),
        10_000,
      );
      registeredClientId = String(registration.client);
      assert.equal(registration.redirectUri, "http://127.0.0.1:*/");
      const served = stage.keystream
        .requests()
        .find((r) => r.method === "POST" && r.url === "/index.php/apps/oauth2/api/v1/register");
      assert.equal(served?.status, 201);

      assert.equal(`${url.origin}${url.pathname}`, `${stage.publicUrl}/index.php/apps/oauth2/authorize`);
      const params = url.searchParams;
      assert.equal(params.get("client_id"), registeredClientId);
      assert.notEqual(params.get("client_id"), BUILT_IN_CLIENT_ID);
      assert.match(params.get("redirect_uri") ?? "", /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(params.get("scope"), "openid offline_access email profile");
      assert.equal(params.get("prompt"), "select_account consent");
      assert.equal(params.get("code_challenge_method"), "S256");
      assert.ok(params.get("code_challenge"));

      // The administrator sees it as a registered client.
      const listed = JSON.parse(stage.keystream.occ(["oauth2:list-clients", "--output=json"])) as Record<
        string,
        Record<string, unknown>
      >;
      const entry = Object.values(listed).find((item) => item["client-id"] === registeredClientId);
      assert.equal(entry?.["self-registered"], true);
      assert.match(String(entry?.name), /^ownCloud 2\.11\.\d+ \(/);
    },
  );

  step(
    "login, TOTP challenge and consent (which says the application registered itself) hand a code to the client, which exchanges it with its secret",
    async () => {
      const url = stage.desktop.openedUrls()[0]!;
      const result = await stage.browser.authorize(url, USER.uid, USER.password, { totpSecret });
      assert.equal(
        result.listenerStatus,
        303,
        `the client's listener answered ${result.listenerStatus} at ${result.listenerUrl}`,
      );
      assert.match(result.listenerUrl, /^http:\/\/127\.0\.0\.1:\d+\/\?/);
      assert.equal(result.finalUrl, `${stage.publicUrl}/index.php/apps/oauth2/authorization-successful`);
      const consentShown = stage.keystream
        .requests()
        .find((r) => r.method === "GET" && r.url.startsWith("/index.php/apps/oauth2/authorize") && r.status === 200);
      assert.ok(consentShown, "the consent page was shown (prompt=consent, and a registered client is never trusted)");
      const exchange = await waitFor(
        "the token exchange in Keystream's log",
        () => stage.keystream.log().find((e) => e.event === "oauth2_code_redeemed" && e.client === registeredClientId),
        30_000,
      );
      assert.equal(exchange.uid, USER.uid);
    },
  );

  step("the consent page of a registered client says it registered itself", async () => {
    const page = await stage.browser.context.newPage();
    try {
      const again = new URL(stage.desktop.openedUrls()[0]!);
      again.searchParams.set("state", "a-second-look");
      await page.goto(again.toString());
      assert.match((await page.locator("#oauth-self-registered").textContent()) ?? "", /registered itself/);
    } finally {
      await page.close();
    }
  });

  step("pressing Connect… finishes the wizard: the account is connected with OAuth", async () => {
    await waitFor(
      "the wizard's advanced page",
      () => stage.files.requests().some((r) => r.method === "PROPFIND" && r.user === USER.uid),
      60_000,
    );
    await pressWizardConnect(stage.desktop, () => /Remote folder found, all cool!/.test(client().log()), 60_000);
    const config = await waitFor(
      "the account in owncloud.cfg",
      () => {
        const text = readConfig(stage.desktop);
        return /0\\http_oauth=true/.test(text) ? text : undefined;
      },
      30_000,
    );
    assert.match(config, new RegExp(`0\\\\http_user=${USER.uid}\\n`));
    assert.match(config, new RegExp(`0\\\\url=${escapeRegExp(stage.publicUrl)}`));
    await waitFor(
      "the account state Connected",
      () => /AccountState connection status change: .* -> .*Connected/.test(client().log()),
      60_000,
    );
    const rootDiscovery = proxyRequests(stage.nginxDir).filter((r) => r.path === "/.well-known/openid-configuration");
    assert.ok(rootDiscovery.every((r) => r.status === 200) && rootDiscovery.length > 0, JSON.stringify(rootDiscovery));
  });

  step("a file put in the client's local folder reaches the server, and one put on the server reaches the client", async () => {
    const localFolder = syncFolderOf(readConfig(stage.desktop));
    const up = `written in the desktop client's folder at ${new Date().toISOString()}\n`;
    fs.writeFileSync(path.join(localFolder, "from-desktop.txt"), up);
    const onServer = path.join(stage.files.folderOf(USER.uid), "from-desktop.txt");
    await waitFor(
      "from-desktop.txt on the server's disk",
      () => fs.existsSync(onServer) && fs.readFileSync(onServer, "utf8") === up,
      120_000,
      500,
    );
    const down = `put on the server's disk at ${new Date().toISOString()}\n`;
    stage.files.putOnDisk(USER.uid, "from-server.txt", down);
    const local = path.join(localFolder, "from-server.txt");
    await waitFor(
      "from-server.txt in the client's local folder",
      () => fs.existsSync(local) && fs.readFileSync(local, "utf8") === down,
      120_000,
      500,
    );
    assert.ok(stage.files.requests().every((r) => r.user === USER.uid));
    note(`server-side listing of ${USER.uid}'s folder: ${stage.files.listOnDisk(USER.uid).join(", ")}`);
  });

  step(
    "after a restart the client refreshes with its registered client id (kept in the keyring), registering no second time",
    async () => {
      const refreshesBefore = stage.keystream.log().filter((e) => e.event === "oauth2_refresh").length;
      const openedBefore = stage.desktop.openedUrls().length;
      await stage.processes.stop(client().process);
      runClient();
      const refresh = await waitFor(
        "a refresh in Keystream's log",
        () => stage.keystream.log().filter((e) => e.event === "oauth2_refresh")[refreshesBefore],
        60_000,
      );
      assert.equal(refresh.uid, USER.uid);
      assert.equal(refresh.client, registeredClientId);
      await waitFor(
        "Connected after the restart",
        () => /AccountState connection status change: .* -> .*Connected/.test(client().log()),
        60_000,
      );
      assert.equal(stage.desktop.openedUrls().length, openedBefore, "no new browser login was needed");
      assert.equal(
        stage.keystream.log().filter((e) => e.event === "oauth2_client_registered").length,
        1,
        "the client reused its registration",
      );
      assertOnlyTheProbeSentTheAccountPassword(stage, "bearer");
    },
  );
});
