import assert from "node:assert/strict";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

export const START = "/index.php/login/v2";
export const POLL = "/index.php/login/v2/poll";
export const PASSWORD = "alice password";
/** What the Nextcloud desktop client 3.7.3 sends (research nextcloud-desktop-client.md §2.1). */
export const DESKTOP_USER_AGENT = "workstation (Desktop Client - Linux)";

export interface StartedFlow {
  pollToken: string;
  endpoint: string;
  login: string;
  /** The login URL's path, for an inject-driven browser. */
  loginPath: string;
}

/** The app with user alice (Alice Liddell). */
export async function createLoginFlowTestApp(): Promise<TestApp> {
  const t = await createTestApp();
  accepted(await t.services.users.create({ uid: "alice", password: PASSWORD, displayName: "Alice Liddell" }));
  return t;
}

/** `POST /index.php/login/v2` as the desktop client sends it: no body, no credentials. */
export function startRequest(
  app: FastifyInstance,
  remoteAddress = "127.0.0.1",
  userAgent = DESKTOP_USER_AGENT,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "POST",
    url: START,
    remoteAddress,
    headers: { "user-agent": userAgent, "content-length": "0", "content-type": "application/x-www-form-urlencoded" },
  });
}

export async function startFlow(
  app: FastifyInstance,
  remoteAddress = "127.0.0.1",
  userAgent = DESKTOP_USER_AGENT,
): Promise<StartedFlow> {
  const response = await startRequest(app, remoteAddress, userAgent);
  assert.equal(response.statusCode, 200, response.body);
  const body = response.json() as { poll: { token: string; endpoint: string }; login: string };
  return { pollToken: body.poll.token, endpoint: body.poll.endpoint, login: body.login, loginPath: new URL(body.login).pathname };
}

/** The client's poll: a form body `token=…`, no credentials. */
export function poll(app: FastifyInstance, pollToken: string, remoteAddress = "127.0.0.1"): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "POST",
    url: POLL,
    remoteAddress,
    payload: new URLSearchParams({ token: pollToken }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
}

export async function loggedIn(app: FastifyInstance, uid = "alice", password = PASSWORD): Promise<FormClient> {
  const browser = new FormClient(app);
  assert.equal((await browser.login(uid, password)).statusCode, 303);
  return browser;
}

/** The browser opens the login URL (logged in already) and presses a button of the grant page. */
export async function answerGrantPage(
  browser: FormClient,
  flow: StartedFlow,
  action: "grant" | "cancel",
): Promise<LightMyRequestResponse> {
  const page = await browser.get(flow.loginPath);
  assert.equal(page.statusCode, 200, page.body);
  return browser.post(`${flow.loginPath}/${action}`, { requesttoken: requestTokenOf(page.body) });
}

export function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
}

/** An API call authenticated with HTTP Basic (the OCS user endpoint the desktop clients call). */
export function ocsUser(app: FastifyInstance, user: string, secret: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "GET",
    url: "/ocs/v2.php/cloud/user?format=json",
    headers: { authorization: basic(user, secret), "ocs-apirequest": "true" },
  });
}
