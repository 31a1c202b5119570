import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sha256Hex } from "../../src/crypto/secrets.js";
import { LOGIN_FLOW_LIFETIME_SECONDS } from "../../src/login-flow/flow.js";
import type { TestApp } from "../support/app.js";
import { requestTokenOf } from "../support/browser-form.js";
import { answerGrantPage, createLoginFlowTestApp, loggedIn, ocsUser, POLL, poll, startFlow, startRequest } from "./support.js";

/** Issue 13, "Login Flow v2": the protocol as Nextcloud's clients use it. */
describe("Login Flow v2", () => {
  let t: TestApp;
  before(async () => {
    t = await createLoginFlowTestApp();
  });
  after(() => t.close());

  it("a start answers the poll token, the poll endpoint and the login page, as absolute URLs under overwrite.cli.url", async () => {
    t.services.settings.set("overwrite.cli.url", "https://cloud.example.com");
    try {
      const response = await startRequest(t.app);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers["cache-control"], "no-store");
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), ["login", "poll"]);
      assert.deepEqual(Object.keys(body.poll).sort(), ["endpoint", "token"]);
      assert.match(body.poll.token, /^[A-Za-z0-9]{128}$/);
      assert.equal(body.poll.endpoint, "https://cloud.example.com/index.php/login/v2/poll");
      assert.match(body.login, /^https:\/\/cloud\.example\.com\/index\.php\/login\/v2\/flow\/[A-Za-z0-9]{128}$/);
    } finally {
      t.services.settings.delete("overwrite.cli.url");
    }
  });

  it("a start takes no parameters: an empty body is accepted whatever content type the client declares", async () => {
    for (const type of ["application/json", "application/x-www-form-urlencoded", "text/plain", "application/octet-stream"]) {
      const response = await t.app.inject({
        method: "POST",
        url: "/index.php/login/v2",
        headers: { "content-type": type, "content-length": "0", "user-agent": "any body" },
      });
      assert.equal(response.statusCode, 200, `${type}: ${response.body}`);
      assert.match(response.json().poll.token, /^[A-Za-z0-9]{128}$/);
    }
  });

  it("a poll answers 404 until the flow is granted, then the server, login name and app password", async () => {
    const flow = await startFlow(t.app);
    assert.equal((await poll(t.app, flow.pollToken)).statusCode, 404);
    const browser = await loggedIn(t.app);
    assert.equal((await poll(t.app, flow.pollToken)).statusCode, 404, "logged in, not granted yet");
    const granted = await answerGrantPage(browser, flow, "grant");
    assert.equal(granted.statusCode, 200);
    assert.match(granted.body, /Account connected/);
    const response = await poll(t.app, flow.pollToken);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers["cache-control"], "no-store");
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ["appPassword", "loginName", "server"]);
    assert.equal(body.server, "http://localhost:80");
    assert.equal(body.loginName, "alice");
    assert.match(body.appPassword, /^[A-Za-z0-9]{72}$/);
  });

  it("the credentials are delivered exactly once: a second poll gets 404", async () => {
    const flow = await startFlow(t.app);
    await answerGrantPage(await loggedIn(t.app), flow, "grant");
    assert.equal((await poll(t.app, flow.pollToken)).statusCode, 200);
    assert.equal((await poll(t.app, flow.pollToken)).statusCode, 404);
    const rows = await t.services.storage.db
      .selectFrom("login_flows")
      .select("poll_token_hash")
      .where("poll_token_hash", "=", sha256Hex(flow.pollToken))
      .execute();
    assert.deepEqual(rows, [], "the flow is deleted by the poll that received it");
  });

  it("two concurrent polls of a granted flow: exactly one receives the credentials", async () => {
    for (let round = 0; round < 5; round++) {
      const flow = await startFlow(t.app);
      await answerGrantPage(await loggedIn(t.app), flow, "grant");
      // From an address of its own each round: the losers' polls name no flow any more, and count
      // in the poll throttle (throttle.test.ts), which is not what this test is about.
      const answers = await Promise.all([1, 2, 3].map(() => poll(t.app, flow.pollToken, `192.0.2.${round}`)));
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 404, 404], `round ${round}`);
    }
  });

  it("a poll accepts the token in a JSON body as in a form", async () => {
    const flow = await startFlow(t.app);
    await answerGrantPage(await loggedIn(t.app), flow, "grant");
    const response = await t.app.inject({ method: "POST", url: POLL, payload: { token: flow.pollToken } });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().loginName, "alice");
  });

  it("a flow expires 20 minutes after its start: its page is no longer valid and its poll answers 404", async () => {
    const flow = await startFlow(t.app);
    const browser = await loggedIn(t.app);
    t.clock.advance(LOGIN_FLOW_LIFETIME_SECONDS - 1);
    assert.equal((await browser.get(flow.loginPath)).statusCode, 200, "still live one second before");
    t.clock.advance(1);
    const page = await browser.get(flow.loginPath);
    assert.equal(page.statusCode, 404);
    assert.match(page.body, /not valid, or has expired/);
    assert.equal((await poll(t.app, flow.pollToken)).statusCode, 404);
  });

  it("a granted flow not polled within 20 minutes answers 404 and its app password is purged with it", async () => {
    const flow = await startFlow(t.app, "127.0.0.1", "never-polled");
    await answerGrantPage(await loggedIn(t.app), flow, "grant");
    assert.equal((await t.services.appPasswords.list("alice")).filter((p) => p.name === "never-polled").length, 1);
    t.clock.advance(LOGIN_FLOW_LIFETIME_SECONDS);
    assert.equal((await poll(t.app, flow.pollToken)).statusCode, 404, "expired: never delivered");
    assert.ok((await t.services.loginFlows.purgeExpired()) >= 1);
    assert.deepEqual(
      (await t.services.appPasswords.list("alice")).filter((p) => p.name === "never-polled"),
      [],
      "an app password nobody received does not outlive its flow",
    );
    const left = await t.services.storage.db.selectFrom("login_flows").select("poll_token_hash").execute();
    assert.deepEqual(left, [], "every expired flow purged");
  });

  it("expired flows are purged by the background job", async () => {
    const flow = await startFlow(t.app);
    t.clock.advance(LOGIN_FLOW_LIFETIME_SECONDS + 3600);
    const ran = await t.services.jobs.runDueJobs();
    assert.ok(ran.includes("login-flow:expired"), JSON.stringify(ran));
    const row = await t.services.storage.db
      .selectFrom("login_flows")
      .select("poll_token_hash")
      .where("poll_token_hash", "=", sha256Hex(flow.pollToken))
      .executeTakeFirst();
    assert.equal(row, undefined);
  });

  it("Cancel ends the flow: its poll answers 404 and it can no longer be granted", async () => {
    const flow = await startFlow(t.app, "127.0.0.1", "cancelled-client");
    const browser = await loggedIn(t.app);
    const cancelled = await answerGrantPage(browser, flow, "cancel");
    assert.equal(cancelled.statusCode, 200);
    assert.match(cancelled.body, /Access denied/);
    assert.equal((await poll(t.app, flow.pollToken)).statusCode, 404);
    assert.equal((await browser.get(flow.loginPath)).statusCode, 404, "the link is dead");
    const settings = await browser.get("/index.php/settings/personal");
    const late = await browser.post(`${flow.loginPath}/grant`, { requesttoken: requestTokenOf(settings.body) });
    assert.equal(late.statusCode, 404, "a grant after Cancel is refused");
    assert.equal((await poll(t.app, flow.pollToken)).statusCode, 404);
    assert.deepEqual(
      (await t.services.appPasswords.list("alice")).filter((p) => p.name === "cancelled-client"),
      [],
      "no app password was created",
    );
  });

  it("an unknown poll token, and a poll without a token, answer 404", async () => {
    const unknown = await poll(t.app, "x".repeat(128));
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, "not_found", "the poll endpoint's answer, not a missing route's");
    const noToken = await t.app.inject({
      method: "POST",
      url: POLL,
      payload: "",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    assert.equal(noToken.statusCode, 404);
    assert.equal(noToken.json().error, "not_found");
  });

  it("tokens are stored only as SHA-256 digests, and the app password only sealed, until the poll", async () => {
    const flow = await startFlow(t.app);
    const loginToken = flow.loginPath.split("/").pop() as string;
    await answerGrantPage(await loggedIn(t.app), flow, "grant");
    const row = await t.services.storage.db
      .selectFrom("login_flows")
      .selectAll()
      .where("poll_token_hash", "=", sha256Hex(flow.pollToken))
      .executeTakeFirstOrThrow();
    assert.equal(row.login_token_hash, sha256Hex(loginToken));
    const stored = JSON.stringify(row);
    assert.ok(!stored.includes(flow.pollToken) && !stored.includes(loginToken), "no token in clear");
    const appPassword = (await poll(t.app, flow.pollToken)).json().appPassword as string;
    assert.ok(!stored.includes(appPassword), "the app password is not stored in clear");
    assert.match(String(row.sealed_app_password), /^v1\./, "sealed (secret-box envelope)");
  });

  it("the app password is named after the client's User-Agent, listed in personal settings, and authenticates Basic on the API", async () => {
    const flow = await startFlow(t.app, "127.0.0.1", "laptop (Desktop Client - Linux)");
    const browser = await loggedIn(t.app);
    const page = await browser.get(flow.loginPath);
    assert.match(page.body, /<dd id="login-flow-name"><strong>laptop \(Desktop Client - Linux\)<\/strong><\/dd>/);
    assert.match(page.body, /You are logged in as <span title="alice"><strong>Alice Liddell<\/strong><\/span>/);
    await browser.post(`${flow.loginPath}/grant`, { requesttoken: requestTokenOf(page.body) });
    const { loginName, appPassword } = (await poll(t.app, flow.pollToken)).json();
    const settings = await browser.get("/index.php/settings/personal");
    assert.match(settings.body, /<tr><td data-label="Name">laptop \(Desktop Client - Linux\)<\/td>/);
    const api = await ocsUser(t.app, loginName, appPassword);
    assert.equal(api.statusCode, 200, api.body);
    assert.equal(api.json().ocs.data.id, "alice");
  });

  it("revoking the flow's app password in personal settings ends the client's access", async () => {
    const flow = await startFlow(t.app, "127.0.0.1", "revoked-host (Desktop Client - Linux)");
    const browser = await loggedIn(t.app);
    await answerGrantPage(browser, flow, "grant");
    const { loginName, appPassword } = (await poll(t.app, flow.pollToken)).json();
    assert.equal((await ocsUser(t.app, loginName, appPassword)).statusCode, 200);
    const id = (await t.services.appPasswords.list("alice")).find((p) => p.name === "revoked-host (Desktop Client - Linux)")?.id;
    assert.ok(id !== undefined);
    const settings = await browser.get("/index.php/settings/personal");
    const revoked = await browser.post(`/index.php/settings/personal/app-passwords/${id}/revoke`, {
      requesttoken: requestTokenOf(settings.body),
    });
    assert.equal(revoked.statusCode, 200);
    assert.equal((await ocsUser(t.app, loginName, appPassword)).statusCode, 401);
  });

  it("revoking a granted app password before the poll ends the flow: the poll answers 404", async () => {
    const flow = await startFlow(t.app, "127.0.0.1", "early-revoke");
    await answerGrantPage(await loggedIn(t.app), flow, "grant");
    const id = (await t.services.appPasswords.list("alice")).find((p) => p.name === "early-revoke")?.id;
    assert.ok(id !== undefined);
    assert.ok(await t.services.appPasswords.revoke("alice", id));
    assert.equal((await poll(t.app, flow.pollToken)).statusCode, 404);
  });

  it("a start without a User-Agent names the application 'Unknown client'; control characters are dropped", async () => {
    const unnamed = await t.app.inject({ method: "POST", url: "/index.php/login/v2", headers: { "user-agent": " " } });
    assert.equal(unnamed.statusCode, 200);
    const browser = await loggedIn(t.app);
    const page = await browser.get(new URL(unnamed.json().login).pathname);
    assert.match(page.body, /<strong>Unknown client<\/strong>/);
    const scripted = await startFlow(t.app, "127.0.0.1", "<script>alert(1)</script>\tclient");
    const scriptedPage = await browser.get(scripted.loginPath);
    assert.doesNotMatch(scriptedPage.body, /<script>alert/);
    assert.match(scriptedPage.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt; client/);
  });
});
