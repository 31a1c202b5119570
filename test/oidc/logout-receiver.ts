import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, decodeProtectedHeader, type JWTPayload, jwtVerify } from "jose";
import { authorizeUrl, consent, exchangeCode, type TestClient } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import type { FormClient } from "../support/browser-form.js";
import { ISSUER, JWKS } from "./support.js";

/** One POST a relying party received. */
export interface ReceivedPost {
  /** Path and query, as requested. */
  url: string;
  contentType: string | undefined;
  logoutToken: string | undefined;
}

/**
 * A relying party's back-channel logout endpoint on loopback: a real HTTP server that records every
 * request and answers each path with the status `statusFor` says (200 unless told).
 */
export class LogoutReceiver {
  readonly posts: ReceivedPost[] = [];
  readonly statuses = new Map<string, number>();
  /** While true, requests are recorded but not answered until `release()`. */
  holding = false;
  private readonly held: Array<() => void> = [];
  private readonly server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      const url = request.url ?? "";
      this.posts.push({
        url: `${request.method} ${url}`,
        contentType: request.headers["content-type"],
        logoutToken: new URLSearchParams(body).get("logout_token") ?? undefined,
      });
      const status = this.statuses.get(url.split("?")[0] ?? "") ?? 200;
      if (status >= 300 && status < 400) response.setHeader("location", `${this.base}/elsewhere`);
      const answer = () => response.writeHead(status).end();
      if (this.holding) this.held.push(answer);
      else answer();
      this.changed?.();
    });
  });
  base = "";

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.base = `http://127.0.0.1:${String((this.server.address() as AddressInfo).port)}`;
    return this;
  }

  private changed: (() => void) | undefined;

  /** Resolves once `count` requests arrived. */
  received(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.posts.length < count) return;
        this.changed = undefined;
        resolve();
      };
      this.changed = check;
      check();
    });
  }

  /** Answers the held requests, and every later one at once. */
  release(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  /** The posts to `path`. */
  to(path: string): ReceivedPost[] {
    return this.posts.filter((post) => post.url.startsWith(`POST ${path}`));
  }

  clear(): void {
    this.posts.length = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Signs the browser's user in to `client` (OpenID Connect code flow); returns the ID token and its verified claims. */
export async function signInTo(
  t: TestApp,
  browser: FormClient,
  client: TestClient,
): Promise<{ idToken: string; claims: JWTPayload }> {
  const location = new URL(await consent(browser, authorizeUrl(client, { scope: "openid profile", nonce: "n-1", state: "s" })));
  const code = location.searchParams.get("code");
  assert.ok(code, location.href);
  const response = await exchangeCode(t, code, {}, client);
  assert.equal(response.statusCode, 200, response.body);
  const idToken = (response.json() as { id_token?: string }).id_token;
  assert.ok(idToken, "an id_token");
  const jwks = (await t.app.inject({ method: "GET", url: JWKS })).json();
  const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), {
    issuer: ISSUER,
    audience: client.clientId,
    currentDate: new Date(t.clock.nowSeconds() * 1000),
  });
  return { idToken, claims: payload };
}

/**
 * Verifies a logout token as a relying party must (OpenID Back-Channel Logout 1.0 §2.6): signature
 * with the published JWKS, issuer, audience, `typ`, and the claims §2.4 requires.
 */
export async function verifyLogoutToken(
  t: Pick<TestApp, "app" | "clock">,
  token: string | undefined,
  client: TestClient,
): Promise<JWTPayload> {
  assert.ok(token, "a logout_token");
  const jwks = (await t.app.inject({ method: "GET", url: JWKS })).json();
  const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: ISSUER,
    audience: client.clientId,
    typ: "logout+jwt",
    algorithms: ["RS256"],
    currentDate: new Date(t.clock.nowSeconds() * 1000),
  });
  assert.equal(decodeProtectedHeader(token).typ, "logout+jwt");
  assert.ok(protectedHeader.kid);
  assert.deepEqual(payload.events, { "http://schemas.openid.net/event/backchannel-logout": {} });
  assert.equal(payload.nonce, undefined, "§2.4: a logout token has no nonce");
  assert.equal(typeof payload.jti, "string");
  assert.equal(typeof payload.iat, "number");
  assert.ok((payload.exp as number) > (payload.iat as number) && (payload.exp as number) <= (payload.iat as number) + 300);
  return payload;
}
