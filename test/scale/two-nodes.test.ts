/**
 * Scale-out: two Keystream processes (`node dist/main.js`) on one database serve the
 * steps of one OAuth flow in turn, and their background jobs never run twice.
 *
 * On PostgreSQL (KEYSTREAM_TEST_DATABASE_URL set) this is the real several-nodes set-up. On SQLite
 * both processes open the same file in one data directory (WAL), which is a legal single-machine
 * set-up too. Either way the two nodes share the data directory (config.json, the client-secret key).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import pino from "pino";
import { ManualClock } from "../../src/clock.js";
import { JobScheduler } from "../../src/jobs/scheduler.js";
import { createServices, type Services } from "../../src/services.js";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import { SqlJobLeaseStore } from "../../src/storage/stores/jobs/job-lease-store.js";
import { AUTHORIZE, PASSWORD, TOKEN, USERINFO, WEB_CLIENT } from "../oauth/support.js";
import { requestTokenOf } from "../support/browser-form.js";
import { eventually } from "../support/eventually.js";
import { FetchBrowser } from "../support/fetch-browser.js";
import { accepted } from "../support/results.js";
import { ServerProcess } from "../support/server-process.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

const SECURITY_STREAM = "/ocs/v2.php/apps/activity/api/v2/activity/security?format=json";
const CLIENT = WEB_CLIENT;
const BACKGROUND_JOBS = ["accounts:expired-sessions", "activity:expire", "oauth2:cleanup"];

const basic = `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.secret}`).toString("base64")}`;

function tokenRequest(node: string, form: Record<string, string>): Promise<Response> {
  return fetch(`${node}${TOKEN}`, {
    method: "POST",
    headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
}

function bearerGet(node: string, path: string, accessToken: string): Promise<Response> {
  return fetch(`${node}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
}

interface Tokens {
  access_token: string;
  refresh_token: string;
  user_id: string;
}

describe("two Keystream nodes on one database", () => {
  let storage: TestStorage;
  let services: Services;
  let a: ServerProcess;
  let b: ServerProcess;
  let urlA: string;
  let urlB: string;

  before(async () => {
    // A fresh, unmigrated database: both nodes start at once and race to migrate it.
    storage = await createTestStorage({ migrate: false });
    a = new ServerProcess(storage, "node A");
    b = new ServerProcess(storage, "node B");
    [urlA, urlB] = await Promise.all([a.url(), b.url()]);
    services = createServices({ storage: storage.storage, dataDir: storage.dataDir, log: pino({ level: "silent" }) });
    accepted(
      await services.users.create({ uid: "alice", password: PASSWORD, displayName: "Alice Liddell", email: "alice@example.com" }),
    );
    const added = await services.oauth.clients.add({
      name: CLIENT.name,
      clientId: CLIENT.clientId,
      secret: CLIENT.secret,
      redirectUri: CLIENT.redirectUri,
      allowSubdomains: "false",
      trusted: "false",
      forceTrust: "true",
    });
    assert.ok(added.ok, added.ok ? "" : added.message);
  });

  after(async () => {
    for (const node of [a, b]) node?.child.kill("SIGKILL");
    await storage?.cleanup();
  });

  it("both nodes started on one fresh database, and its migrations ran exactly once", () => {
    assert.notEqual(urlA, urlB);
    const applied = [a, b].flatMap((node) => node.logLines("database migrated").map((line) => line.applied as string[]));
    assert.equal(applied.length, 1, `one node migrated, the other found nothing to do\nA: ${a.stdout}\nB: ${b.stdout}`);
    assert.ok(applied[0]!.length >= 3, JSON.stringify(applied));
  });

  it("login + consent on A, token on B, refresh on A, userinfo + activity on B, revoke on A → token rejected on B", async () => {
    const browser = new FetchBrowser();
    const authorize = `${AUTHORIZE}?${new URLSearchParams({ response_type: "code", client_id: CLIENT.clientId, redirect_uri: CLIENT.redirectUri })}`;

    // Login and consent on node A.
    const first = await browser.request(`${urlA}${authorize}`);
    assert.equal(first.status, 303);
    const loginPath = String(first.headers.get("location"));
    assert.match(loginPath, /^\/index\.php\/login\?redirect_url=/);
    const loginPage = await (await browser.request(`${urlA}${loginPath}`)).text();
    const login = await browser.request(`${urlA}/index.php/login`, {
      user: "alice",
      password: PASSWORD,
      requesttoken: requestTokenOf(loginPage),
      redirect_url: new URL(loginPath, urlA).searchParams.get("redirect_url") ?? "",
    });
    assert.equal(login.status, 303, await login.text());
    const consentPath = String(login.headers.get("location"));
    const consentPage = await (await browser.request(new URL(consentPath, urlA).href)).text();
    assert.match(consentPage, /id="oauth-consent"/);
    const decision = await browser.request(new URL(consentPath, urlA).href, { requesttoken: requestTokenOf(consentPage) });
    assert.equal(decision.status, 303);
    const code = new URL(String(decision.headers.get("location"))).searchParams.get("code");
    assert.ok(code, "node A redirected to the client with a code");

    // The code, issued by A, is exchanged on B.
    const exchanged = await tokenRequest(urlB, { grant_type: "authorization_code", code, redirect_uri: CLIENT.redirectUri });
    assert.equal(exchanged.status, 200);
    const tokens = (await exchanged.json()) as Tokens;
    assert.equal(tokens.user_id, "alice");

    // Refresh on A: the pair B issued is rotated.
    const refreshed = await tokenRequest(urlA, { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    assert.equal(refreshed.status, 200);
    const rotated = (await refreshed.json()) as Tokens;
    assert.notEqual(rotated.access_token, tokens.access_token);
    // (Presenting the rotated refresh token again would count as reuse and revoke the grant: not here.)
    assert.equal(
      (await bearerGet(urlB, USERINFO, tokens.access_token)).status,
      401,
      "B no longer takes the rotated pair's access token",
    );

    // Userinfo and the activity stream on B with the token A issued.
    const info = await bearerGet(urlB, USERINFO, rotated.access_token);
    assert.equal(info.status, 200);
    assert.deepEqual(await info.json(), { sub: "alice", name: "Alice Liddell", email: "alice@example.com" });
    const stream = await bearerGet(urlB, SECURITY_STREAM, rotated.access_token);
    assert.equal(stream.status, 200);
    const entries = ((await stream.json()) as { ocs: { data: Array<{ subject_prepared: string }> } }).ocs.data;
    assert.ok(
      entries.some((e) => e.subject_prepared === "You granted <parameter>Web App</parameter> access to your account"),
      JSON.stringify(entries),
    );

    // Revoke on A with the personal settings page's button. The page (and its CSRF token) comes
    // from B: the session's CSRF state is in the database, not in a node.
    const settings = await browser.request(`${urlB}/index.php/settings/personal`);
    assert.equal(settings.status, 200);
    const settingsPage = await settings.text();
    const action = /action="(\/index\.php\/apps\/oauth2\/clients\/\d+\/revoke)"/.exec(settingsPage)?.[1];
    assert.ok(action, "node B lists the authorized client with a Revoke form");
    const revoked = await browser.request(`${urlA}${action}`, { requesttoken: requestTokenOf(settingsPage) });
    assert.equal(revoked.status, 303);
    assert.equal(revoked.headers.get("location"), "/index.php/settings/personal#oauth2");

    // Rejected on B from the next request on: no node caches tokens.
    const rejected = await bearerGet(urlB, USERINFO, rotated.access_token);
    assert.equal(rejected.status, 401);
    assert.match(String(rejected.headers.get("www-authenticate")), /error="invalid_token"/);
    assert.equal((await bearerGet(urlB, SECURITY_STREAM, rotated.access_token)).status, 401);
    assert.equal((await tokenRequest(urlB, { grant_type: "refresh_token", refresh_token: rotated.refresh_token })).status, 400);
    assert.match(await (await browser.request(`${urlB}/index.php/settings/personal`)).text(), /No applications authorized\./);

    // A code is single-use across nodes: a new consent on A, redeemed on B, replayed on A.
    const consentAgain = await (await browser.request(`${urlA}${authorize}`)).text();
    const again = await browser.request(`${urlA}${authorize}`, { requesttoken: requestTokenOf(consentAgain) });
    assert.equal(again.status, 303);
    const secondCode = new URL(String(again.headers.get("location"))).searchParams.get("code") ?? "";
    const form = { grant_type: "authorization_code", code: secondCode, redirect_uri: CLIENT.redirectUri };
    assert.equal((await tokenRequest(urlB, form)).status, 200);
    assert.equal((await tokenRequest(urlA, form)).status, 400);
  });

  it("each background job ran on one node only, and both nodes stop cleanly", async () => {
    // Both schedulers tick one second after start; wait until every job has run somewhere.
    const finished = () =>
      [a, b].flatMap((node) => node.logLines("background job finished").map((line) => `${line.job as string}@${node.name}`));
    await eventually(
      "every background job ran on a node",
      () => BACKGROUND_JOBS.every((job) => finished().some((f) => f.startsWith(`${job}@`))),
      15_000,
    );
    // Stopping waits for a tick still running (JobScheduler.stop): the log is then complete.
    assert.deepEqual(await a.stop(), { code: 0, signal: null }, a.stderr);
    assert.deepEqual(await b.stop(), { code: 0, signal: null }, b.stderr);
    const ran = finished();
    for (const job of BACKGROUND_JOBS) {
      assert.equal(ran.filter((f) => f.startsWith(`${job}@`)).length, 1, `${job} ran exactly once: ${ran.join(", ")}`);
    }
  });
});

describe("JobScheduler lease: two schedulers on one database", () => {
  let storage: TestStorage;
  let second: Storage;
  const clock = new ManualClock();
  const silent = { info() {}, error() {} };

  before(async () => {
    storage = await createTestStorage();
    // A second connection (pool) to the same database, as another node has.
    second = openStorage({ databaseUrl: storage.databaseUrl, dataDir: storage.dataDir });
  });
  after(async () => {
    await second?.close();
    await storage?.cleanup();
  });

  function schedulers(job: { name: string; run: () => Promise<void> }, leaseSeconds = 600): [JobScheduler, JobScheduler] {
    const x = new JobScheduler(new SqlJobLeaseStore(storage.storage.db), clock, silent, leaseSeconds);
    const y = new JobScheduler(new SqlJobLeaseStore(second.db), clock, silent, leaseSeconds);
    for (const s of [x, y]) s.register({ ...job, intervalSeconds: () => 3600 });
    return [x, y];
  }

  it("when both try at once, exactly one runs the job; it is not due again on either until its interval passed", async () => {
    let runs = 0;
    const [x, y] = schedulers({
      name: "test:race",
      run: async () => {
        runs++;
        // A job that takes a moment (the behaviour under test): the other scheduler's attempt
        // meets the lease while it is held.
        await delay(20);
      },
    });
    for (let round = 0; round < 10; round++) {
      const [ranX, ranY] = await Promise.all([x.runDueJobs(), y.runDueJobs()]);
      assert.equal(ranX.length + ranY.length, 1, `round ${round}: one winner (x ${ranX}, y ${ranY})`);
      assert.equal(runs, round + 1);
      const [againX, againY] = await Promise.all([x.runDueJobs(), y.runDueJobs()]);
      assert.deepEqual([againX, againY], [[], []], "not due again yet");
      clock.advance(3600);
    }
  });

  it("while one node runs the job the other does not start it; a lease left by a dead node expires", async () => {
    let release: () => void = () => {};
    const started: string[] = [];
    let current = "";
    const job = {
      name: "test:long",
      run: async () => {
        started.push(current);
        if (current === "x") await new Promise<void>((resolve) => (release = resolve));
      },
    };
    const [x, y] = schedulers(job, 600);
    current = "x";
    const xRun = x.runDueJobs();
    await eventually("x started the job", () => started.length > 0);
    current = "y";
    assert.deepEqual(await y.runDueJobs(), [], "x holds the lease");
    clock.advance(599);
    assert.deepEqual(await y.runDueJobs(), [], "still within x's lease");
    // x stalls past its lease (as a node that died mid-job would): y may take over.
    clock.advance(2);
    assert.deepEqual(await y.runDueJobs(), ["test:long"]);
    release();
    assert.deepEqual(await xRun, ["test:long"]);
    assert.deepEqual(started, ["x", "y"]);
    // x's late release must not clear the lease record y wrote.
    const row = await storage.storage.db
      .selectFrom("job_leases")
      .select(["last_run_at"])
      .where("name", "=", "test:long")
      .executeTakeFirstOrThrow();
    assert.equal(row.last_run_at, clock.nowSeconds());
  });
});
