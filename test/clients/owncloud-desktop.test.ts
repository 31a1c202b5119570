import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { type ClientRun, pressWizardConnect, startClient } from "./harness/desktop.js";
import { assertNoActivityFor, assertUploadActivity, legacyActivities } from "./harness/file-activities.js";
import { proxyRequests } from "./harness/nginx.js";
import { interestingLines, readConfig, seedClientSettings, syncFolderOf } from "./harness/owncloud-client.js";
import { waitFor } from "./harness/processes.js";
import { escapeRegExp, httpsGet, note } from "./harness/scenario.js";
import { assertOnlyTheProbeSentTheAccountPassword, setUpTotpInBrowser } from "./harness/second-factor.js";
import { describeClientTest, Stage } from "./harness/stage.js";

/**
 * Issue 7: the unmodified ownCloud desktop client 2.11 (Debian `owncloud-client`) signs in to
 * Keystream with OAuth 2.0 and shows the user's activities. Everything runs on this machine:
 * Keystream (node dist/main.js), nginx terminating TLS with a CA made now and authorizing file
 * requests with Keystream's forward-auth endpoint, Apache mod_dav_fs as the file server (issue 14),
 * Xvfb + D-Bus + gnome-keyring, the client in a mount namespace that trusts the test CA, and
 * Debian Chromium (playwright-core) as the user's browser. See docs/clients.md.
 * The user has TOTP (set up in personal settings first): the browser step passes the password and
 * then the challenge, and the client never sends the account password (harness/second-factor.ts).
 */

const DESKTOP_CLIENT_ID = "xdXOt13JKxym1B1QcEncf2XDkLAexMBFwiT9j6EfhhHFJhs2KM9jbjTmf8JBXE69";
const USER = { uid: "alice", password: "correct horse battery staple", displayName: "Alice Example", email: "alice@example.org" };
/** Published with `./occ activity:publish`, and what the legacy list renders them as (newest first). */
const ACTIVITIES = [
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
  {
    app: "files_sharing",
    type: "shared",
    affecteduser: USER.uid,
    user: "bob",
    subject: "shared_with_by",
    subjectparams: [
      { type: "file", value: "/Quarterly report.odt" },
      { type: "user", value: "bob" },
    ],
    object_type: "files",
    object_id: 8,
    object_name: "/Quarterly report.odt",
  },
];
const ACTIVITY_SUBJECTS = ["bob shared Quarterly report.odt with you", "You created Holiday photos"];

describeClientTest("owncloud", "ownCloud desktop client 2.11 against Keystream, for a user with TOTP", () => {
  let appPassword: string;
  let totpSecret: string;
  /** Keystream requests of the set-up (the TOTP set-up's own probes), before the client's first. */
  let beforeClient = new Set<string>();
  const clientRuns: ClientRun[] = [];
  const client = () => clientRuns[clientRuns.length - 1]!;
  const stage = Stage.inDescribe({
    workPrefix: "keystream-clients-",
    user: USER,
    activities: ACTIVITIES,
    stepTimeoutMs: 150_000,
    beforeStart: (keystream) => {
      appPassword = keystream.occ(["user:add-app-password", USER.uid, "--name=client-test"]).trim();
    },
    seedDesktop: seedClientSettings,
    clientRuns: () => clientRuns,
    interestingLines,
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

  const stopClient = async () => {
    await stage.processes.stop(client().process);
  };

  step("the user sets up TOTP in personal settings: the account password over Basic is refused from then on", async () => {
    ({ secret: totpSecret, setUpRequests: beforeClient } = await setUpTotpInBrowser(stage, USER, appPassword));
  });

  step("the wizard finds Keystream (status.php, Bearer challenge) and opens the authorize URL with PKCE S256", async () => {
    const status = await httpsGet(`${stage.publicUrl}/status.php`, stage.pki.caCert);
    const body = JSON.parse(status.body);
    assert.equal(body.installed, true);
    // ownCloud 2.11 supports 10 and above; the version is 16 or above for the Nextcloud client (docs/decisions.md).
    assert.ok(Number(body.version.split(".")[0]) >= 10, body.version);
    assert.notEqual(body.productname, "Nextcloud");

    runClient();
    const url = new URL(
      await waitFor("the client to open a browser (xdg-open shim)", () => stage.desktop.openedUrls()[0], 60_000),
    );
    assert.equal(url.origin, stage.publicUrl);
    assert.equal(url.pathname, "/index.php/apps/oauth2/authorize");
    const params = url.searchParams;
    assert.equal(params.get("response_type"), "code");
    assert.equal(params.get("client_id"), DESKTOP_CLIENT_ID);
    assert.match(params.get("redirect_uri") ?? "", /^http:\/\/localhost:\d+$/);
    assert.equal(params.get("code_challenge_method"), "S256");
    assert.match(params.get("state") ?? "", /=$/, "the client's state ends in '='");
    assert.match(client().log(), /Auth type for QUrl\("https:\/\/localhost:\d+\/remote\.php\/webdav\/"\) is .*AuthType::OAuth/);
    // The unauthenticated probe got the Bearer challenge from nginx (forward-auth), and never reached the file server.
    const probe = proxyRequests(stage.nginxDir).find((r) => r.method === "PROPFIND" && r.path === "/remote.php/webdav/");
    assert.equal(probe?.status, 401, "the unauthenticated DAV probe got the Bearer challenge");
    assert.deepEqual(stage.files.requests(), []);
  });

  step(
    "login, TOTP challenge and consent in the browser hand a code to the client, which exchanges it at Keystream",
    async () => {
      const url = stage.desktop.openedUrls()[0]!;
      const result = await stage.browser.authorize(url, USER.uid, USER.password, {
        totpSecret,
        whilePending: async () => {
          // The password is right, the second factor owed: no consent page, no code, no token yet.
          await waitFor(
            "the password step in Keystream's log",
            () => stage.keystream.log().find((e) => e.event === "login_password_passed"),
            10_000,
          );
          assert.equal(
            stage.keystream.log().find((e) => e.event === "oauth2_code_redeemed"),
            undefined,
          );
        },
      });
      // The token response carries message_url (built from overwrite.cli.url): the listener answers 303 to it.
      assert.equal(
        result.listenerStatus,
        303,
        `the client's listener answered ${result.listenerStatus} at ${result.listenerUrl}`,
      );
      assert.equal(result.finalUrl, `${stage.publicUrl}/index.php/apps/oauth2/authorization-successful`);
      assert.match(result.body, /id="oauth-success"/);
      const exchange = await waitFor(
        "the token exchange in Keystream's log",
        () => stage.keystream.log().find((e) => e.event === "oauth2_code_redeemed" && e.client === DESKTOP_CLIENT_ID),
        30_000,
      );
      assert.equal(exchange.uid, USER.uid);
      const events = stage.keystream.log().map((e) => e.event);
      assert.ok(
        events.indexOf("second_factor_passed") < events.indexOf("oauth2_code_redeemed"),
        "the code after the second factor",
      );
      assert.ok(events.includes("second_factor_passed"));
      const tokenPosts = stage.keystream.requests().filter((r) => r.url.startsWith("/index.php/apps/oauth2/api/v1/token"));
      assert.equal(tokenPosts[0]?.status, 200);
    },
  );

  step("pressing Connect… finishes the wizard: the account is connected (owncloud.cfg and the client's log)", async () => {
    // The advanced page sends a PROPFIND for oc:size when it is shown; then Connect… (HEAD) is possible.
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
    assert.match(config, new RegExp(`0\\\\dav_user=${USER.uid}\\n`));
    assert.match(config, new RegExp(`0\\\\url=${escapeRegExp(stage.publicUrl)}`));
    await waitFor(
      "the account state Connected",
      () => /AccountState connection status change: .* -> .*Connected/.test(client().log()),
      60_000,
    );
    assert.ok(stage.files.requests().some((r) => r.method === "HEAD" && r.status === 200 && r.user === USER.uid));
    assert.equal(stage.desktop.openedUrls().length, 1, `one browser login; opened: ${stage.desktop.openedUrls().join(" ")}`);
    // What Keystream served the client on the way (research §8): no OIDC discovery, OCS v1 capabilities and user.
    const served = (prefix: string) =>
      stage.keystream.requests().find((r) => !beforeClient.has(r.reqId) && r.method === "GET" && r.url.startsWith(prefix))
        ?.status;
    assert.equal(served("/.well-known/openid-configuration"), 404);
    assert.equal(served("/ocs/v1.php/cloud/capabilities?format=json"), 200);
    assert.equal(served("/ocs/v1.php/cloud/user?format=json"), 200);
    assert.match(config, new RegExp(`0\\\\display-name=${USER.displayName}\\n`));
    assert.ok(
      stage.files.requests().every((r) => r.user === USER.uid),
      "every request that reached the file server was the user's",
    );
  });

  step("a file put in the client's local folder appears on the server's disk under the user's folder", async () => {
    const localFolder = syncFolderOf(readConfig(stage.desktop));
    const content = `written in the desktop client's folder at ${new Date().toISOString()}\n`;
    fs.writeFileSync(path.join(localFolder, "from-desktop.txt"), content);
    const onServer = path.join(stage.files.folderOf(USER.uid), "from-desktop.txt");
    await waitFor(
      "from-desktop.txt on the server's disk",
      () => fs.existsSync(onServer) && fs.readFileSync(onServer, "utf8") === content,
      120_000,
      500,
    );
    const upload = stage.files.requests().find((r) => r.method === "PUT" && r.path.endsWith("/from-desktop.txt"));
    assert.equal(upload?.user, USER.uid);
    assert.equal(upload?.path, "/remote.php/webdav/from-desktop.txt");
    await waitFor(
      "the client's log to record the upload",
      () => /Completed propagation of "?from-desktop\.txt/.test(client().log()),
      30_000,
    );
    note(`server-side listing of ${USER.uid}'s folder: ${stage.files.listOnDisk(USER.uid).join(", ")}`);
  });

  step("a file put on the server's disk appears in the client's local folder", async () => {
    const localFolder = syncFolderOf(readConfig(stage.desktop));
    const content = `put on the server's disk at ${new Date().toISOString()}\n`;
    stage.files.putOnDisk(USER.uid, "from-server.txt", content);
    const local = path.join(localFolder, "from-server.txt");
    // The client notices through its poll of the folder's ETag (remotePollInterval, seeded to 5 s).
    await waitFor(
      "from-server.txt in the client's local folder",
      () => fs.existsSync(local) && fs.readFileSync(local, "utf8") === content,
      120_000,
      500,
    );
    const download = stage.files.requests().find((r) => r.method === "GET" && r.path.endsWith("/from-server.txt"));
    assert.equal(download?.status, 200);
    assert.equal(download?.user, USER.uid);
    assert.match(client().log(), /Completed propagation of "?from-server\.txt/);
    note(`server-side listing of ${USER.uid}'s folder: ${stage.files.listOnDisk(USER.uid).join(", ")}`);
  });

  step("the Activity tab's request is served by Keystream with the activities published for the user", async () => {
    const served = await waitFor(
      "the client's activity request in Keystream's log",
      () => stage.keystream.requests().find((r) => r.url.startsWith("/ocs/v2.php/cloud/activity") && r.method === "GET"),
      60_000,
    );
    assert.equal(served.status, 200);
    assert.match(served.url, /page=0&pagesize=100&format=json/);
    // The same request with the user's app password: the items are the ones published for them.
    const same = await fetch(`${stage.keystream.url}${served.url}`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${USER.uid}:${appPassword}`).toString("base64")}`,
        "ocs-apirequest": "true",
      },
    });
    const items = ((await same.json()) as { ocs: { data: { subject: string; date: string }[] } }).ocs.data;
    // Newest first: the ones published before the login, after them what the login itself recorded
    // (Keystream's own "You granted Desktop Client access…" security activity).
    const subjects = items.map((i) => i.subject);
    assert.deepEqual(subjects.slice(-ACTIVITY_SUBJECTS.length), ACTIVITY_SUBJECTS, JSON.stringify(subjects));
    for (const item of items) assert.match(item.date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    // The client's own HTTP log shows the start of the body it received.
    await waitFor("the activity reply in the client's log", () => client().log().includes(ACTIVITY_SUBJECTS[1]!), 30_000);
    await waitFor(
      "the client to accept the activity reply",
      () => /cloud\/activity\?page=0&pagesize=100&format=json"\) FINISHED WITH STATUS "OK"/.test(client().log()),
      30_000,
    );
  });

  step("after a restart the client refreshes its token at Keystream (refresh token from the keyring)", async () => {
    const refreshesBefore = stage.keystream.log().filter((e) => e.event === "oauth2_refresh").length;
    // The first login opened the browser once (checked above); the restart must open it no more.
    const openedBefore = stage.desktop.openedUrls().length;
    await stopClient();
    runClient();
    const refresh = await waitFor(
      "a refresh in Keystream's log",
      () => stage.keystream.log().filter((e) => e.event === "oauth2_refresh")[refreshesBefore],
      60_000,
    );
    assert.equal(refresh.uid, USER.uid);
    assert.equal(refresh.client, DESKTOP_CLIENT_ID);
    await waitFor(
      "Connected after the restart",
      () => /AccountState connection status change: .* -> .*Connected/.test(client().log()),
      60_000,
    );
    assert.equal(
      stage.desktop.openedUrls().length,
      openedBefore,
      `no new browser login was needed; opened: ${stage.desktop.openedUrls().join(" ")}; Keystream's OAuth log: ${JSON.stringify(
        stage.keystream.log().filter((e) => typeof e.event === "string" && e.event.startsWith("oauth2")),
      )}; its token answers: ${JSON.stringify(
        stage.keystream
          .requests()
          .filter((r) => r.url.includes("/api/v1/"))
          .map((r) => `${r.method} ${r.url} ${r.status}`),
      )}`,
    );
    // Login, sync, activities and the refresh: the client sent its Bearer token, never the password.
    assertOnlyTheProbeSentTheAccountPassword(stage, "bearer");
  });

  step(
    "the upload through nginx is one file_created activity, in the legacy list the restarted client read; the file put on disk is none",
    async () => {
      const reader = { url: stage.keystream.url, uid: USER.uid, appPassword };
      const upload = await assertUploadActivity(reader, stage.nginxDir, "from-desktop.txt");
      note(`the upload's activity in the API v2: ${JSON.stringify(upload)}`);
      await assertNoActivityFor(reader, "from-server.txt");
      const legacy = (await legacyActivities(reader)).filter((item) => item.file === "/from-desktop.txt");
      assert.deepEqual(
        legacy.map((item) => item.subject),
        ["You created from-desktop.txt"],
      );
      // The restart above connected again, and a connect fetches the Activity tab (research §4).
      await waitFor(
        "the restarted client's activity reply",
        () => client().log().includes("You created from-desktop.txt"),
        60_000,
      );
      // Each reply the client logged lists it once.
      const replies = client()
        .log()
        .split("\n")
        .filter((line) => line.includes("You created from-desktop.txt"));
      for (const reply of replies) assert.equal(reply.split("You created from-desktop.txt").length - 1, 1, reply);
      assert.doesNotMatch(client().log(), /You created from-server\.txt/);
    },
  );

  step("a revoke in personal settings makes the client's next refresh fail", async () => {
    note("revoking the Desktop Client in personal settings");
    await stage.browser.revokeInPersonalSettings(`${stage.publicUrl}/index.php/settings/personal`, "Desktop Client");
    const revoked = await waitFor(
      "the revoke in Keystream's log",
      () => stage.keystream.log().find((e) => e.event === "oauth2_revoked" && e.client === DESKTOP_CLIENT_ID),
      10_000,
    );
    assert.equal(revoked.uid, USER.uid);
    const seenBefore = new Set(stage.keystream.requests().map((r) => r.reqId));
    const refreshesBefore = stage.keystream.log().filter((e) => e.event === "oauth2_refresh").length;

    await stopClient();
    runClient(); // a start always begins with a refresh (research §2)
    const refused = await waitFor(
      "the refused refresh in Keystream's log",
      () =>
        stage.keystream
          .requests()
          .find(
            (r) => !seenBefore.has(r.reqId) && r.url.startsWith("/index.php/apps/oauth2/api/v1/token") && r.method === "POST",
          ),
      60_000,
    );
    assert.equal(refused.status, 400, "the refresh with the revoked token is refused");
    assert.equal(
      stage.keystream.log().filter((e) => e.event === "oauth2_refresh").length,
      refreshesBefore,
      "no token was refreshed",
    );
    // The client hears invalid_grant, forgets the token (keychain) and asks for credentials again.
    await waitFor("the client to give up the token", () => /-> "Asking Credentials"/.test(client().log()), 30_000);
    const log = client().log();
    assert.match(log, /Response: POST 400 https:\/\/localhost:\d+\/index\.php\/apps\/oauth2\/api\/v1\/token .*invalid_grant/);
    assert.match(log, /del "ownCloud_credentials:localhost:[^"]*:http\/oauthtoken"/);
    assert.doesNotMatch(
      log.split("Asking Credentials")[1] ?? "",
      /connection status change: .* -> OCC::ConnectionValidator::Connected/,
    );
  });
});
