import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { TestContext } from "node:test";
import { type ClientRun, startClient } from "./harness/desktop.js";
import { assertNoActivityFor, assertUploadActivity } from "./harness/file-activities.js";
import { interestingLines, seedClientSettings } from "./harness/nextcloud-client.js";
import { proxyRequests } from "./harness/nginx.js";
import { waitFor } from "./harness/processes.js";
import {
  assertNotificationReachesClient,
  assertPublishFetchedAtOnce,
  assertPushConnected,
  assertQuietMinute,
  hasNotificationGenerate,
} from "./harness/push.js";
import { escapeRegExp, httpsGet, note } from "./harness/scenario.js";
import { assertOnlyTheProbeSentTheAccountPassword, setUpTotpInBrowser } from "./harness/second-factor.js";
import { describeClientTest, Stage } from "./harness/stage.js";

/**
 * Issue 13: the unmodified Nextcloud desktop client 3.7.3 (Debian `nextcloud-desktop`) signs in to
 * Keystream with Login Flow v2 and fills its tray's Activity list from the activity API v2; a
 * revoke of its app password in personal settings signs it out. Same stage as the ownCloud test
 * (test/clients/harness/): Keystream, nginx with a test CA in front of Keystream and of the file
 * server (Apache mod_dav_fs behind Keystream's forward-auth, issue 14: the client syncs files both
 * ways), Xvfb + D-Bus + gnome-keyring, the client in a mount namespace trusting the CA, Chromium as
 * the user's browser.
 * What the client sends and reads: research/nextcloud-desktop-client.md. See docs/clients.md.
 * The user has TOTP (set up in personal settings first): the browser step passes the password and
 * then the challenge, the flow's poll delivers the app password only after both, and the client
 * never sends the account password (harness/second-factor.ts).
 * Issue 28: push (harness/push.ts): the client opens Keystream's websocket through nginx, fetches
 * its activities at once on `notify_activity` after `./occ activity:publish`, sends no activity
 * request in a quiet minute, and hears of a generated notification; the revoke closes its socket.
 */

const USER = { uid: "alice", password: "correct horse battery staple", displayName: "Alice Example", email: "alice@example.org" };
/** Published with `./occ activity:publish` before the client connects (it fetches once per connect, §4.5). */
const ACTIVITIES = [
  {
    app: "files",
    type: "file_created",
    affecteduser: USER.uid,
    user: USER.uid,
    subject: "created_self",
    subjectparams: [{ type: "file", value: "/Holiday photos", id: 7 }],
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
      { type: "file", value: "/Quarterly report.odt", id: 8 },
      { type: "user", value: "bob" },
    ],
    object_type: "files",
    object_id: 8,
    object_name: "/Quarterly report.odt",
  },
];
/** Published with `./occ activity:publish` while the client is connected: push brings it at once (issue 28). */
const PUSHED_ACTIVITY = {
  app: "files_sharing",
  type: "shared",
  affecteduser: USER.uid,
  user: "bob",
  subject: "shared_with_by",
  subjectparams: [
    { type: "file", value: "/Pushed plan.odt", id: 9 },
    { type: "user", value: "bob" },
  ],
  object_type: "files",
  object_id: 9,
  object_name: "/Pushed plan.odt",
};
/** What the tray shows for them: subject_rich with its placeholders filled (research §4.2), newest first. */
const ACTIVITY_SUBJECTS = ["bob shared Quarterly report.odt with you", "You created Holiday photos"];
/** The tray's request (research §4.1): the first page, then older pages with since=<last id>. */
const ACTIVITY_REQUEST = "/ocs/v2.php/apps/activity/api/v2/activity?previews=true&since=0&limit=50&format=json";
/** The Nextcloud client names itself so in Login Flow v2 (`<hostname> (Desktop Client - Linux)`, §2.1). */
const CLIENT_NAME = /\(Desktop Client - Linux\)$/;

describeClientTest("nextcloud", "Nextcloud desktop client 3.7 against Keystream, for a user with TOTP", () => {
  let totpSecret: string;
  /** Keystream requests of the set-up (the TOTP set-up's own probes), before the client's first. */
  let beforeClient = new Set<string>();
  /** Keystream requests logged before the client had its app password (the unauthenticated probes). */
  let beforeLogin = new Set<string>();
  let client: ClientRun;
  const stage = Stage.inDescribe({
    workPrefix: "keystream-nextcloud-client-",
    user: USER,
    activities: ACTIVITIES,
    stepTimeoutMs: 180_000,
    seedDesktop: seedClientSettings,
    clientRuns: () => (client ? [client] : []),
    interestingLines,
  });
  const step = (name: string, body: (t: TestContext) => Promise<void>) => stage.step(name, body);

  /** Keystream's answered requests whose URL starts with `prefix` (its access log). */
  const served = (method: string, prefix: string) =>
    stage.keystream.requests().filter((r) => !beforeClient.has(r.reqId) && r.method === method && r.url.startsWith(prefix));

  step("the user sets up TOTP in personal settings: the account password over Basic is refused from then on", async () => {
    const appPassword = stage.keystream.occ(["user:add-app-password", USER.uid, "--name=client-test set-up"]).trim();
    ({ secret: totpSecret, setUpRequests: beforeClient } = await setUpTotpInBrowser(stage, USER, appPassword));
  });

  step(
    "the wizard finds Keystream (status.php version ≥ 16), chooses Login Flow v2 and opens Keystream's login page",
    async () => {
      const status = JSON.parse((await httpsGet(`${stage.publicUrl}/status.php`, stage.pki.caCert)).body);
      assert.ok(Number(status.version.split(".")[0]) >= 16, status.version);

      client = startClient(stage.processes, stage.desktop, {
        kind: "nextcloud",
        serverUrl: stage.publicUrl,
        trustDir: stage.pki.trustDir,
        logFile: path.join(stage.work, "client.log"),
        outputFile: path.join(stage.work, "client.out"),
        // The wizard's folder page then accepts itself (research §6.1): the user's folder on the file server.
        extraArgs: ["--overridelocaldir", path.join(stage.desktop.home, "Nextcloud")],
      });
      const loginUrl = new URL(
        await waitFor("the client to open a browser (xdg-open shim)", () => stage.desktop.openedUrls()[0], 90_000),
      );
      assert.match(client.log(), /Auth type for QUrl\("https:\/\/localhost:\d+\/remote\.php\/dav\/files\/\/"\) is .*LoginFlowV2/);
      assert.equal(loginUrl.origin, stage.publicUrl);
      assert.match(loginUrl.pathname, /^\/index\.php\/login\/v2\/flow\/[A-Za-z0-9]+$/);
      // Keystream's log line of a request may follow its answer by a moment: wait for it.
      await waitFor(
        "the flow's start in Keystream's log",
        () => served("POST", "/index.php/login/v2").some((r) => r.url === "/index.php/login/v2"),
        10_000,
      );
      const start = served("POST", "/index.php/login/v2");
      assert.deepEqual(
        start.filter((r) => r.url === "/index.php/login/v2").map((r) => r.status),
        [200],
        "one flow started",
      );
    },
  );

  step("Login Flow v2 completed in Chromium, password then TOTP challenge, hands the client an app password", async () => {
    const loginUrl = stage.desktop.openedUrls()[0]!;
    const result = await stage.browser.grantLoginFlow(loginUrl, USER.uid, USER.password, {
      totpSecret,
      whilePending: async () => {
        // Password right, second factor owed: the client's next poll (every 5 s) still gets 404.
        const pollsBefore = served("POST", "/index.php/login/v2/poll").length;
        await waitFor(
          "a poll while the challenge is pending",
          () => served("POST", "/index.php/login/v2/poll")[pollsBefore],
          20_000,
        );
        assert.deepEqual([...new Set(served("POST", "/index.php/login/v2/poll").map((r) => r.status))], [404]);
        assert.ok(stage.keystream.log().some((e) => e.event === "login_password_passed"));
        assert.equal(
          stage.keystream.log().find((e) => e.event === "login_flow_granted"),
          undefined,
        );
      },
    });
    assert.match(result.text, /Account connected/, result.text);
    assert.match(result.text, /Desktop Client - Linux/);
    const granted = await waitFor(
      "the grant in Keystream's log",
      () => stage.keystream.log().find((e) => e.event === "login_flow_granted"),
      10_000,
    );
    assert.equal(granted.uid, USER.uid);
    assert.match(String(granted.client), CLIENT_NAME);
    const events = stage.keystream.log().map((e) => e.event);
    assert.ok(events.includes("second_factor_passed"));
    assert.ok(events.indexOf("second_factor_passed") < events.indexOf("login_flow_granted"), "the grant after the second factor");
    // The client polls every 5 s: 404 until granted, then 200 exactly once.
    await waitFor(
      "the client to receive its app password",
      () => /Success getting the appPassword for user/.test(client.log()),
      60_000,
    );
    await waitFor(
      "the delivering poll in Keystream's log",
      () => served("POST", "/index.php/login/v2/poll").some((r) => r.status === 200),
      10_000,
    );
    beforeLogin = new Set(stage.keystream.requests().map((r) => r.reqId));
    const polls = served("POST", "/index.php/login/v2/poll").map((r) => r.status);
    assert.deepEqual(
      polls.filter((s) => s === 200),
      [200],
      `polls answered ${polls.join(",")}`,
    );
    assert.ok(
      polls.every((s) => s === 200 || s === 404),
      polls.join(","),
    );
  });

  step(
    "the account is Connected: cloud/user, the DAV root through nginx and the file server, the account saved with webflow credentials",
    async () => {
      await waitFor(
        "the account state Connected",
        () => /AccountState state change: .* -> .*Connected/.test(client.log()),
        90_000,
      );
      const config = fs.readFileSync(path.join(stage.desktop.home, ".config/Nextcloud/nextcloud.cfg"), "utf8");
      assert.match(config, /0\\authType=webflow\n/);
      assert.match(config, new RegExp(`0\\\\webflow_user=${USER.uid}\\n`));
      assert.match(config, new RegExp(`0\\\\dav_user=${USER.uid}\\n`));
      assert.match(config, new RegExp(`0\\\\url=${escapeRegExp(stage.publicUrl)}`));
      // Keystream's log line of a request may follow its answer by a moment: wait for it.
      await waitFor(
        "the capabilities request in Keystream's log",
        () => served("GET", "/ocs/v1.php/cloud/capabilities?format=json").some((r) => r.status === 200),
        10_000,
      );
      assert.ok(served("GET", "/ocs/v1.php/cloud/user?format=json").every((r) => r.status === 200));
      const davChecks = stage.files
        .requests()
        .filter((r) => r.method === "PROPFIND" && r.path === `/remote.php/dav/files/${USER.uid}/`);
      assert.ok(
        davChecks.some((r) => r.status === 207 && r.user === USER.uid),
        JSON.stringify(davChecks),
      );
      assert.ok(
        stage.files.requests().every((r) => r.user === USER.uid),
        "every request that reached the file server was the user's",
      );
      // No 401 anywhere once the client has its app password (Keystream's pages and API, and its
      // forward-auth answers for the file server): any 401 would sign the client out (research §3.6).
      const unauthorized = stage.keystream
        .requests()
        .filter((r) => !beforeLogin.has(r.reqId) && r.status === 401)
        .map((r) => `${r.method} ${r.url}`);
      assert.deepEqual(unauthorized, []);
    },
  );

  step("a file put in the client's local folder appears on the server's disk under the user's folder", async () => {
    const content = `written in the Nextcloud client's folder at ${new Date().toISOString()}\n`;
    fs.writeFileSync(path.join(stage.desktop.home, "Nextcloud", "from-nextcloud.txt"), content);
    const onServer = path.join(stage.files.folderOf(USER.uid), "from-nextcloud.txt");
    await waitFor(
      "from-nextcloud.txt on the server's disk",
      () => fs.existsSync(onServer) && fs.readFileSync(onServer, "utf8") === content,
      120_000,
      500,
    );
    const upload = stage.files.requests().find((r) => r.method === "PUT" && r.path.endsWith("/from-nextcloud.txt"));
    assert.equal(upload?.path, `/remote.php/dav/files/${USER.uid}/from-nextcloud.txt`);
    assert.equal(upload?.user, USER.uid);
    note(`server-side listing of ${USER.uid}'s folder: ${stage.files.listOnDisk(USER.uid).join(", ")}`);
  });

  step("a file put on the server's disk appears in the client's local folder", async () => {
    const content = `put on the server's disk at ${new Date().toISOString()}\n`;
    stage.files.putOnDisk(USER.uid, "from-server-for-nextcloud.txt", content);
    const local = path.join(stage.desktop.home, "Nextcloud", "from-server-for-nextcloud.txt");
    await waitFor(
      "from-server-for-nextcloud.txt in the client's local folder",
      () => fs.existsSync(local) && fs.readFileSync(local, "utf8") === content,
      120_000,
      500,
    );
    const download = stage.files.requests().find((r) => r.method === "GET" && r.path.endsWith("/from-server-for-nextcloud.txt"));
    assert.equal(download?.status, 200);
    assert.equal(download?.user, USER.uid);
    note(`server-side listing of ${USER.uid}'s folder: ${stage.files.listOnDisk(USER.uid).join(", ")}`);
    // Through nginx: every file request the client made was authorized by Keystream first.
    assert.ok(proxyRequests(stage.nginxDir).some((r) => r.method === "GET" && r.path.endsWith("/from-server-for-nextcloud.txt")));
  });

  step("the tray's Activity list is filled from the activity API v2 with the activities published for the user", async () => {
    const request = await waitFor(
      "the tray's activity request in Keystream's log",
      () => served("GET", ACTIVITY_REQUEST).find((r) => r.status === 200),
      90_000,
    );
    await waitFor(
      "the client to accept the activity reply",
      () =>
        new RegExp(
          `JsonApiJob of QUrl\\("${escapeRegExp(`${stage.publicUrl}${ACTIVITY_REQUEST}`)}"\\) FINISHED WITH STATUS "OK"`,
        ).test(client.log()),
      30_000,
    );
    assert.match(client.log(), /Start fetching activities for/);
    // The client's HTTP log shows the start of the body it received: the newest activity first.
    assert.match(
      client.log(),
      /Response: GET 200 \S+activity\?previews=true&since=0.* Data: .*\{actor\} shared \{file\} with you/,
    );
    // The same request with an app password of the same user: what the tray received.
    const appPassword = stage.keystream.occ(["user:add-app-password", USER.uid, "--name=client-test check"]).trim();
    const same = await fetch(`${stage.keystream.url}${request.url}`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${USER.uid}:${appPassword}`).toString("base64")}`,
        "ocs-apirequest": "true",
      },
    });
    const items = (
      (await same.json()) as {
        ocs: { data: { activity_id: number; subject_rich: [string, Record<string, { name: string }>]; previews: unknown[] }[] };
      }
    ).ocs.data;
    const shown = items.map(({ subject_rich: [template, parameters] }) =>
      template.replace(/\{([^}]+)\}/g, (_, key: string) => parameters[key]?.name ?? ""),
    );
    // Newest first: what the login recorded (Keystream's own security activity), then the published ones.
    assert.deepEqual(shown.slice(-ACTIVITY_SUBJECTS.length), ACTIVITY_SUBJECTS, JSON.stringify(shown));
    for (const item of items) {
      assert.ok(Number.isInteger(item.activity_id) && item.activity_id > 0);
      assert.deepEqual(item.previews, []);
    }
  });

  step(
    "the upload through nginx is one file_created activity in the API v2, which the restarted client's tray receives; the file put on disk is none",
    async () => {
      const reader = {
        url: stage.keystream.url,
        uid: USER.uid,
        appPassword: stage.keystream.occ(["user:add-app-password", USER.uid, "--name=client-test files"]).trim(),
      };
      const upload = await assertUploadActivity(reader, stage.nginxDir, "from-nextcloud.txt");
      note(`the upload's activity in the API v2: ${JSON.stringify(upload)}`);
      await assertNoActivityFor(reader, "from-server-for-nextcloud.txt");
      // The tray fetches activities once per connect (research §4.5): a restart shows the new one.
      await stage.processes.stop(client.process);
      client = startClient(stage.processes, stage.desktop, {
        kind: "nextcloud",
        serverUrl: stage.publicUrl,
        trustDir: stage.pki.trustDir,
        logFile: path.join(stage.work, "client-2.log"),
        outputFile: path.join(stage.work, "client-2.out"),
      });
      await waitFor(
        "the restarted client's activity reply",
        () => /Response: GET 200 \S+activity\?previews=true&since=0.* Data: /.test(client.log()),
        120_000,
      );
      // The client logs the body with its quotes escaped (\"); a JSON "/" may be written "\/".
      const reply = (/Response: GET 200 \S+activity\?previews=true&since=0.* Data: .*/.exec(client.log())?.[0] ?? "")
        .replaceAll('\\"', '"')
        .replaceAll("\\/", "/");
      const uploads = reply.match(/"object_name":"\/from-nextcloud\.txt"/g) ?? [];
      assert.equal(uploads.length, 1, reply);
      assert.match(reply, /"type":"file_created"/);
      assert.doesNotMatch(reply, /from-server-for-nextcloud/);
      // Login, sync, activities, restart: the client sent its app password, never the account password.
      assertOnlyTheProbeSentTheAccountPassword(stage, "basic");
    },
  );

  step(
    "push is advertised (wss through nginx), and the client opens /push/ws and authenticates with its app password",
    async () => {
      await assertPushConnected(stage, client, USER.uid);
    },
  );

  step(
    "after `./occ activity:publish` for the user, the client's next activity request comes within 2 s (notify_activity)",
    async () => {
      await assertPublishFetchedAtOnce(stage, client, PUSHED_ACTIVITY);
    },
  );

  step("with push on, a quiet minute brings no activity request (the client's refresh timer is stopped)", async () => {
    await assertQuietMinute(stage, client);
  });

  step(
    "a notification from `./occ notification:generate` reaches the client: notify_notification, then its notifications request",
    async (t) => {
      if (!hasNotificationGenerate(stage)) {
        t.skip("this Keystream has no `./occ notification:generate` (the notifications API) yet");
        return;
      }
      await assertNotificationReachesClient(stage, client, USER.uid, "Maintenance tonight at eight");
    },
  );

  step("revoking the client's app password in personal settings signs the client out", async () => {
    const revokedBefore = stage.keystream.log().filter((e) => e.event === "app_password_revoked").length;
    const clientName = String(stage.keystream.log().find((e) => e.event === "login_flow_granted")?.client);
    note(`revoking the app password "${clientName}" in personal settings`);
    const logBefore = client.log().length;
    await stage.browser.revokeInPersonalSettings(
      `${stage.publicUrl}/index.php/settings/personal`,
      clientName,
      "#app-password-list",
    );
    await waitFor(
      "the revoke in Keystream's log",
      () => stage.keystream.log().filter((e) => e.event === "app_password_revoked")[revokedBefore],
      10_000,
    );
    // The client's next request with the revoked password (the sync folder's poll, every 5 s) gets a
    // 401; the client then forgets its credentials and signs the account out (research §3.6).
    await waitFor(
      "the client to sign out",
      () => /AccountState state change: .*Connected.* -> .*Signed out/.test(client.log()),
      120_000,
    );
    const log = client.log().slice(logBefore);
    // The revoke closed the user's push socket at once, before any request could be refused.
    assert.ok(log.indexOf("Disconnected from websocket") >= 0, "the push socket was closed");
    assert.ok(log.indexOf("Disconnected from websocket") < log.search(/Response: \S+ 401 /), "closed before the first 401");
    assert.match(log, /Response: \S+ 401 https:\/\/localhost:\d+\//);
    assert.doesNotMatch(log.split(/-> .*Signed out/)[1] ?? "", /AccountState state change: .* -> .*"?Connected/);
  });
});
