import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import { FORWARD_AUTH_PATH } from "../../src/http/routes/forward-auth.js";
import { LOGIN_THROTTLE, loginBuckets } from "../../src/security/domain/throttle-policy.js";
import { freePort, ProcessSet, type Started, waitFor } from "../clients/harness/processes.js";
import { basic, createOAuthTestApp, exchangeCode, issueCode, PASSWORD, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { authRequestSnippet, keystreamUpstream, PROTECT_SNIPPET } from "../support/nginx-forward-auth.js";
import { accepted } from "../support/results.js";

/**
 * issue 13: a real nginx (`auth_request`) in front of a tiny file server, configured with the
 * snippets operators install (deploy/nginx/, read from the files), asks Keystream about every
 * request. Only authenticated requests reach the file server, with the user's headers and without
 * the credentials. The client connects from 127.0.0.3, nginx reaches Keystream from 127.0.0.1 (the
 * trusted proxy), so the address Keystream throttles is the client's real one.
 */

const CLIENT_ADDRESS = "127.0.0.3";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface UpstreamHit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(port: number, method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port, method, path: url, headers, localAddress: CLIENT_ADDRESS },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

function nginxConfig(dir: string, port: number, keystreamAddress: string, upstreamPort: number): string {
  fs.writeFileSync(path.join(dir, "keystream-auth-request.conf"), authRequestSnippet());
  const runAs = process.getuid?.() === 0 ? "user root;\n" : "";
  return `${runAs}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 64; }
http {
  ${keystreamUpstream(keystreamAddress)}
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    include ${dir}/keystream-auth-request.conf;
    location /wiki/ {
      include ${PROTECT_SNIPPET};
      set $keystream_groups "editors,wiki";
      proxy_pass http://127.0.0.1:${upstreamPort};
    }
    location /remote.php/ {
      include ${PROTECT_SNIPPET};
      proxy_pass http://127.0.0.1:${upstreamPort};
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_request_buffering off;
    }
  }
}
`;
}

describe("forward authentication through a real nginx (auth_request)", () => {
  const processes = new ProcessSet();
  let t: TestApp;
  let keystream: FastifyInstance;
  let upstream: http.Server;
  let nginx: Started;
  let dir: string;
  let port: number;
  let accessToken: string;
  let signInToken: string;
  let bobAppPassword: string;
  /** What the file server received. */
  const hits: UpstreamHit[] = [];
  /** The headers of every auth-request Keystream received (what nginx sends it). */
  const authRequests: http.IncomingHttpHeaders[] = [];
  let failed = false;

  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "bob", password: PASSWORD, displayName: "Bøb Ünïcode" }));
    bobAppPassword = accepted(await t.services.appPasswords.create("bob", "rclone")).secret;
    accepted(await t.services.groups.create("wiki"));
    accepted(await t.services.groups.addMember("wiki", "bob"));
    accessToken = (await exchangeCode(t, await issueCode(t))).json().access_token;
    signInToken = (await exchangeCode(t, await issueCode(t, WEB_CLIENT, { scope: "openid profile email" }))).json().access_token;

    keystream = await buildApp({ services: t.services, trustedProxies: ["127.0.0.1"], sleep: async () => {} });
    keystream.addHook("onRequest", (request, _reply, done) => {
      if (request.url.split("?")[0] === FORWARD_AUTH_PATH) authRequests.push({ ...request.headers });
      done();
    });
    await keystream.listen({ host: "127.0.0.1", port: 0 });
    const keystreamPort = (keystream.server.address() as AddressInfo).port;

    upstream = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        hits.push({
          method: String(request.method),
          url: String(request.url),
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
        response.writeHead(200, { "content-type": "text/plain" }).end("file server");
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const upstreamPort = (upstream.address() as AddressInfo).port;

    dir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-forward-auth-"));
    port = await freePort();
    const config = path.join(dir, "nginx.conf");
    fs.writeFileSync(config, nginxConfig(dir, port, `127.0.0.1:${keystreamPort}`, upstreamPort));
    nginx = processes.start("nginx", "/usr/sbin/nginx", ["-p", dir, "-e", path.join(dir, "error.log"), "-c", config], {
      logFile: path.join(dir, "stdout.log"),
    });
    await waitFor(
      "nginx to listen",
      () => {
        if (!nginx.isRunning()) throw new Error(`nginx exited: ${fs.readFileSync(path.join(dir, "error.log"), "utf8")}`);
        return new Promise<boolean>((resolve) => {
          const socket = net.connect(port, "127.0.0.1", () => {
            socket.end();
            resolve(true);
          });
          socket.on("error", () => resolve(false));
        });
      },
      15_000,
      50,
    );
  });

  after(async () => {
    await processes.stopAll();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    await keystream.close();
    await t.close();
    if (failed) process.stderr.write(`nginx logs kept in ${dir}\n`);
    else fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `check`, keeping nginx's logs when it fails. */
  const keepLogsOnFailure = async (check: () => Promise<void>) => {
    try {
      await check();
    } catch (error) {
      failed = true;
      throw error;
    }
  };

  it("docs/deployment.md shows the snippets this test runs, directive for directive", () => {
    const docs = fs.readFileSync(new URL("../../docs/deployment.md", import.meta.url), "utf8");
    const documented = new Set(docs.split("\n").map((line) => line.trim()));
    for (const snippet of [authRequestSnippet(), fs.readFileSync(PROTECT_SNIPPET, "utf8")]) {
      const directives = snippet
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "" && !line.startsWith("#"));
      assert.ok(directives.length > 5);
      for (const directive of directives) assert.ok(documented.has(directive), `docs/deployment.md lacks: ${directive}`);
    }
  });

  it("a site that requires groups: a user in none of them gets 403 and the site is never asked; a member passes", () =>
    keepLogsOnFailure(async () => {
      hits.length = 0;
      const outsider = await send(port, "GET", "/wiki/page", { authorization: `Bearer ${accessToken}` });
      assert.equal(outsider.status, 403, outsider.body);
      assert.equal(hits.length, 0);
      const member = await send(port, "GET", "/wiki/page", { authorization: basic("bob", bobAppPassword) });
      assert.equal(member.status, 200, member.body);
      assert.equal(hits.length, 1);
      assert.equal(hits[0]?.headers["x-keystream-user"], "bob");
      // The file server's location requires no group: alice's token still opens it.
      const files = await send(port, "GET", "/remote.php/webdav/a.txt", { authorization: `Bearer ${accessToken}` });
      assert.equal(files.status, 200, files.body);
    }));

  it("a sign-in token does not open the file server: 403 insufficient_scope, the file server never asked", () =>
    keepLogsOnFailure(async () => {
      hits.length = 0;
      const answer = await send(port, "GET", "/remote.php/webdav/a.txt", { authorization: `Bearer ${signInToken}` });
      assert.equal(answer.status, 403, answer.body);
      assert.equal(hits.length, 0);
    }));

  it("a request with a bearer token reaches the file server with the user's headers and without the token", () =>
    keepLogsOnFailure(async () => {
      hits.length = 0;
      const answer = await send(port, "GET", "/remote.php/webdav/a.txt", { authorization: `Bearer ${accessToken}` });
      assert.equal(answer.status, 200, answer.body);
      assert.equal(answer.body, "file server");
      assert.equal(hits.length, 1);
      const [hit] = hits as [UpstreamHit];
      assert.equal(hit.url, "/remote.php/webdav/a.txt");
      assert.equal(hit.headers["x-keystream-user"], "alice");
      assert.equal(hit.headers["x-keystream-display-name"], "Alice%20Liddell");
      assert.equal(hit.headers.authorization, undefined, "the credential stays with nginx");
    }));

  it("an upload with an app password reaches the file server with its body; Keystream gets neither the body nor the cookie, and the client's real address", () =>
    keepLogsOnFailure(async () => {
      hits.length = 0;
      authRequests.length = 0;
      const answer = await send(
        port,
        "PUT",
        "/remote.php/webdav/b.txt",
        {
          authorization: basic("bob", bobAppPassword),
          cookie: "ks_session=some-session",
          "x-forwarded-for": "198.51.100.99",
          "content-type": "text/plain",
        },
        "file contents",
      );
      assert.equal(answer.status, 200, answer.body);
      assert.equal(hits.length, 1);
      const [hit] = hits as [UpstreamHit];
      assert.equal(hit.method, "PUT");
      assert.equal(hit.body, "file contents");
      assert.equal(hit.headers["x-keystream-user"], "bob");
      assert.equal(decodeURIComponent(String(hit.headers["x-keystream-display-name"])), "Bøb Ünïcode");
      assert.equal(authRequests.length, 1);
      const [seen] = authRequests as [http.IncomingHttpHeaders];
      assert.equal(seen["content-length"], undefined);
      assert.equal(seen.cookie, undefined);
      assert.equal(seen["x-forwarded-for"], `198.51.100.99, ${CLIENT_ADDRESS}`);
    }));

  it("requests without credentials or with refused ones never reach the file server: 401 with Keystream's Bearer challenge", () =>
    keepLogsOnFailure(async () => {
      hits.length = 0;
      const anonymous = await send(port, "PROPFIND", "/remote.php/webdav/", { depth: "0" });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers["www-authenticate"], 'Bearer realm="Keystream"');
      const badToken = await send(port, "GET", "/remote.php/webdav/a.txt", { authorization: `Bearer ${"x".repeat(64)}` });
      assert.equal(badToken.status, 401);
      assert.equal(badToken.headers["www-authenticate"], 'Bearer realm="Keystream", error="invalid_token"');
      const forged = await send(port, "GET", "/remote.php/webdav/a.txt", { "x-keystream-user": "alice" });
      assert.equal(forged.status, 401, "a client's own X-Keystream-User is no credential");
      assert.equal((await send(port, "GET", "/_keystream/auth-request", {})).status, 404, "the auth location is internal");
      assert.deepEqual(hits, []);
    }));

  it("a client's own X-Keystream-User header is replaced by the user Keystream authenticated", () =>
    keepLogsOnFailure(async () => {
      hits.length = 0;
      const answer = await send(port, "GET", "/remote.php/webdav/a.txt", {
        authorization: basic("bob", bobAppPassword),
        "x-keystream-user": "alice",
        "x-keystream-display-name": "Alice",
      });
      assert.equal(answer.status, 200);
      assert.equal(hits[0]?.headers["x-keystream-user"], "bob");
      assert.equal(hits[0]?.headers["x-keystream-display-name"], "B%C3%B8b%20%C3%9Cn%C3%AFcode");
    }));

  it("a wrong password counts against the client's real address (not one it forged); past the ceiling nginx answers 429 with Keystream's Retry-After", () =>
    keepLogsOnFailure(async () => {
      hits.length = 0;
      const wrong = await send(port, "GET", "/remote.php/webdav/a.txt", {
        authorization: basic("bob", "wrong"),
        "x-forwarded-for": "198.51.100.50",
      });
      assert.equal(wrong.status, 401);
      const failuresOf = async (address: string) =>
        Number(
          (
            await t.services.storage.db
              .selectFrom("throttle")
              .select("failures")
              .where("bucket", "=", `${LOGIN_THROTTLE.namespace}:ip:${address}`)
              .executeTakeFirst()
          )?.failures ?? 0,
        );
      assert.equal(await failuresOf(CLIENT_ADDRESS), 1);
      assert.equal(await failuresOf("198.51.100.50"), 0);

      // The rest of the failures up to the ceiling, recorded directly (the test above shows one counts).
      const addressBucket = loginBuckets(CLIENT_ADDRESS, "bob").filter((bucket) => bucket.shared);
      for (let i = 1; i < LOGIN_THROTTLE.lockoutAfterFailures; i++) {
        const reservation = await t.services.loginThrottle.reserve(addressBucket);
        assert.ok(reservation.admitted);
        await t.services.loginThrottle.settle(addressBucket, { kind: "failure" });
      }
      const refused = await send(port, "GET", "/remote.php/webdav/a.txt", { authorization: basic("bob", PASSWORD) });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers["retry-after"]) > 0, String(refused.headers["retry-after"]));
      assert.deepEqual(hits, []);
      const withToken = await send(port, "GET", "/remote.php/webdav/a.txt", { authorization: `Bearer ${accessToken}` });
      assert.equal(withToken.status, 200, "a token is not throttled");
    }));

  it("while Keystream is unreachable the file server stays closed: 503", () =>
    keepLogsOnFailure(async () => {
      await keystream.close();
      hits.length = 0;
      const answer = await send(port, "GET", "/remote.php/webdav/a.txt", { authorization: `Bearer ${accessToken}` });
      assert.equal(answer.status, 503);
      assert.deepEqual(hits, []);
    }));
});
