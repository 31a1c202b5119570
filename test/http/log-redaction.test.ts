import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { REDACTED, redactUrl } from "../../src/http/log-redaction.js";
import { LOGIN_FLOW_START_PATH } from "../../src/http/routes/login-flow.js";
import { authorizeUrl, loggedIn, WEB_CLIENT } from "../oauth/support.js";
import { createOidcTestApp, END_SESSION, openIdTokens, POST_LOGOUT } from "../oidc/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { testDatabaseDialect } from "../support/storage.js";

describe("redactUrl", () => {
  it("replaces the values of secret and personal parameters, whatever their case, and keeps the rest as sent", () => {
    assert.equal(
      redactUrl(
        "/index.php/apps/oauth2/end-session?id_token_hint=eyJ.x.y&post_logout_redirect_uri=https%3A%2F%2Fa.example%2Fout&state=s%201",
      ),
      `/index.php/apps/oauth2/end-session?id_token_hint=${REDACTED}&post_logout_redirect_uri=https%3A%2F%2Fa.example%2Fout&state=${REDACTED}`,
    );
    assert.equal(
      redactUrl("/cb?Code=abc&CLIENT_SECRET=s&password=p&token=t&access_token=a&refresh_token=r&requesttoken=q&client_id=c"),
      `/cb?Code=${REDACTED}&CLIENT_SECRET=${REDACTED}&password=${REDACTED}&token=${REDACTED}&access_token=${REDACTED}&refresh_token=${REDACTED}&requesttoken=${REDACTED}&client_id=c`,
    );
    assert.equal(redactUrl("/a?code&flag&x=%zz&co%64e=1"), `/a?code=${REDACTED}&flag&x=%zz&co%64e=${REDACTED}`);
    assert.equal(redactUrl("/status.php"), "/status.php");
  });

  it("redacts inside a URL a parameter carries (the login page's redirect_url), and Login Flow's path token", () => {
    const authorize = "/index.php/apps/oauth2/authorize?client_id=c&login_hint=alice@example.com&nonce=n&state=s";
    const login = `/index.php/login?redirect_url=${encodeURIComponent(authorize)}&user=alice%40example.com`;
    const redacted = redactUrl(login);
    assert.doesNotMatch(redacted, /alice|example\.com|nonce=n|state=s/);
    const back = new URL(redacted, "http://x").searchParams.get("redirect_url");
    assert.equal(back, `/index.php/apps/oauth2/authorize?client_id=c&login_hint=${REDACTED}&nonce=${REDACTED}&state=${REDACTED}`);
    assert.equal(redactUrl("/index.php/login/v2/flow/AbC123/grant"), `/index.php/login/v2/flow/${REDACTED}/grant`);
    assert.equal(
      redactUrl(`/index.php/login?redirect_url=${encodeURIComponent("/index.php/login/v2/flow/AbC123")}`),
      `/index.php/login?redirect_url=${encodeURIComponent(`/index.php/login/v2/flow/${REDACTED}`)}`,
    );
  });
});

describe(`the access log carries no secrets or personal data (${testDatabaseDialect})`, () => {
  let t: TestApp;
  let logged: FastifyInstance;
  const lines: Array<Record<string, unknown>> = [];

  before(async () => {
    t = await createOidcTestApp();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    // The same services behind an app whose log is captured.
    logged = await buildApp({ services: { ...t.services, log: pino({ level: "info" }, sink) }, sleep: async () => {} });
    await logged.ready();
  });
  after(async () => {
    await logged.close();
    await t.close();
  });

  const urlsOf = (predicate: (url: string) => boolean): string[] =>
    lines.map((line) => (line.req as { url?: string } | undefined)?.url ?? "").filter(predicate);

  it("a GET end-session's line shows its id_token_hint and state redacted", async () => {
    const on = { ...t, app: logged };
    const browser = await loggedIn(on);
    const { id_token } = await openIdTokens(on, browser);
    lines.length = 0;
    const url = `${END_SESSION}?${new URLSearchParams({ id_token_hint: id_token as string, post_logout_redirect_uri: POST_LOGOUT, state: "bye" })}`;
    assert.equal((await browser.get(url)).statusCode, 303);
    const [line] = urlsOf((u) => u.startsWith(END_SESSION));
    assert.equal(
      line,
      `${END_SESSION}?id_token_hint=${REDACTED}&post_logout_redirect_uri=${encodeURIComponent(POST_LOGOUT)}&state=${REDACTED}`,
    );
    const text = JSON.stringify(lines);
    assert.ok(!text.includes(id_token as string) && !text.includes("eyJ"), "the token is nowhere in the log");
  });

  it("login hints, codes, request tokens and Login Flow tokens stay out of every line, 404s and throttle delays included", async () => {
    lines.length = 0;
    const anonymous = new FormClient(logged);
    const toLogin = await anonymous.get(
      authorizeUrl(WEB_CLIENT, { scope: "openid", login_hint: "alice@example.com", state: "st-42" }),
    );
    const loginUrl = String(toLogin.headers.location);
    assert.match(loginUrl, /alice%40example\.com/, "the hint is in the URL the browser follows");
    const page = await anonymous.get(loginUrl);
    const back = new URL(loginUrl, "http://x").searchParams.get("redirect_url") as string;
    // A failed attempt first: the next one is delayed, and its delay is logged with the URL.
    await anonymous.post(`/index.php/login?redirect_url=${encodeURIComponent(back)}`, {
      user: "alice",
      password: "wrong",
      requesttoken: requestTokenOf(page.body),
    });
    // Another attempt, delayed, with the hint in its own URL.
    await anonymous.post("/index.php/login?user=alice%40example.com", {
      user: "alice",
      password: "wrong",
      requesttoken: requestTokenOf(page.body),
    });
    const flow = (await logged.inject({ method: "POST", url: LOGIN_FLOW_START_PATH })).json() as { login: string };
    const flowToken = new URL(flow.login).pathname.split("/").pop() as string;
    await anonymous.get(new URL(flow.login).pathname);
    assert.equal((await logged.inject({ url: "/no/such/page?code=secret-code-1&requesttoken=secret-rt" })).statusCode, 404);

    const text = JSON.stringify(lines);
    for (const secret of [
      "alice@example.com",
      "alice%40example.com",
      "alice%2540example.com",
      "st-42",
      flowToken,
      "secret-code-1",
      "secret-rt",
    ]) {
      assert.ok(!text.includes(secret), `${secret} is not logged`);
    }
    assert.ok(
      lines.some((line) => line.event === "throttle_delay"),
      "a delay was logged",
    );
    assert.ok(
      lines.some((line) => String(line.msg).startsWith("Route GET:/no/such/page?code=REDACTED")),
      "the 404's own line",
    );
  });
});
