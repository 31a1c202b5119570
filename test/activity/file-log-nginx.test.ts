import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { freePort, ProcessSet, readIfExists, waitFor } from "../clients/harness/processes.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { listenOnLoopback } from "../support/browser.js";
import { authRequestSnippet, keystreamUpstream, PROTECT_SNIPPET } from "../support/nginx-forward-auth.js";
import { REPO_ROOT } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { basicAuthFor } from "./support.js";

const NGINX = "/usr/sbin/nginx";
const SNIPPET = path.join(REPO_ROOT, "deploy/nginx/keystream-files-log.conf");

/** An in-process HTTP server on a free loopback port. */
async function listen(handler: http.RequestListener): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * A file server in miniature: answers as a WebDAV server does (RFC 4918) for the methods the log
 * maps, keeping only the set of paths that exist. Status codes are what decides, not bytes.
 */
function tinyWebdav(): http.RequestListener {
  const existing = new Set<string>();
  // Both URL shapes name one storage (one user here).
  const file = (url: string) => decodeURIComponent(url.split("?")[0]!.replace(/^\/remote\.php\/(webdav|dav\/files\/[^/]+)/, ""));
  return (request, response) => {
    const target = file(request.url ?? "");
    request.resume();
    request.on("end", () => {
      let status: number;
      switch (request.method) {
        case "PUT":
          status = existing.has(target) ? 204 : 201;
          existing.add(target);
          break;
        case "MKCOL":
          status = existing.has(target) ? 405 : 201;
          existing.add(target);
          break;
        case "DELETE":
          status = existing.delete(target) ? 204 : 404;
          break;
        case "MOVE": {
          const destination = file(new URL(String(request.headers.destination)).pathname);
          status = existing.delete(target) ? 201 : 404;
          if (status === 201) existing.add(destination);
          break;
        }
        default:
          status = 207;
      }
      response.writeHead(status).end();
    });
  };
}

/**
 * nginx as deployed: the shipped forward-auth snippets (deploy/nginx/keystream-auth-request.conf,
 * keystream-protect.conf) ask the test's Keystream about every request; the location logs the
 * writes in the keystream_files format with the user Keystream's answer named.
 */
function nginxConfig(dir: string, port: number, webdav: string, keystream: string, log: string): string {
  fs.writeFileSync(path.join(dir, "keystream-auth-request.conf"), authRequestSnippet());
  const runAs = process.getuid?.() === 0 ? "user root;\n" : "";
  return `${runAs}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 64; }
http {
  ${keystreamUpstream(new URL(keystream).host)}
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${SNIPPET};
  server {
    listen 127.0.0.1:${port};
    include ${dir}/keystream-auth-request.conf;
    location /remote.php/ {
      include ${PROTECT_SNIPPET};
      access_log ${log} keystream_files if=$keystream_files_write;
      proxy_pass ${webdav};
    }
  }
}
`;
}

describe("file activities through a real nginx writing the keystream_files log", {
  skip: !fs.existsSync(NGINX) && `${NGINX} is not installed`,
}, () => {
  let t: TestApp;
  const processes = new ProcessSet();
  let servers: http.Server[] = [];
  let base: string;
  let log: string;
  let dir: string;
  /** Alice's app password, as an Authorization header. */
  let alice: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice" }));
    // nginx dates its lines by the real clock, decades before the test clock's 2096: keep them in retention.
    t.services.settings.set("activity_expire_days", 36_500);
    dir = fs.mkdtempSync(path.join(t.testStorage.dataDir, "nginx-"));
    log = path.join(dir, "keystream-files.log");
    const webdav = await listen(tinyWebdav());
    const keystream = await listenOnLoopback(t);
    alice = await basicAuthFor(t, "alice");
    servers = [webdav.server];
    const port = await freePort();
    const config = path.join(dir, "nginx.conf");
    fs.writeFileSync(config, nginxConfig(dir, port, webdav.url, keystream, log));
    const nginx = processes.start("nginx", NGINX, ["-p", dir, "-e", path.join(dir, "error.log"), "-c", config], {
      logFile: path.join(dir, "stdout.log"),
    });
    base = `http://127.0.0.1:${port}`;
    await waitFor(
      "nginx to listen",
      async () => {
        if (!nginx.isRunning()) throw new Error(`nginx exited: ${readIfExists(path.join(dir, "error.log"))}`);
        return fetch(`${base}/remote.php/webdav/`, { method: "PROPFIND" }).then(
          () => true,
          () => false,
        );
      },
      20_000,
      100,
    );
  });

  after(async () => {
    await processes.stopAll();
    for (const server of servers) server.close();
    await t.close();
  });

  it("publishes exactly the successful writes of the authorized user, once, from what nginx logged", async (ctx) => {
    const as = (authorization: string | undefined, method: string, target: string, headers: Record<string, string> = {}) =>
      fetch(`${base}${target}`, {
        method,
        headers: { ...(authorization ? { authorization } : {}), ...headers },
        body: method === "PUT" ? "content" : undefined,
      }).then((r) => r.status);
    const statuses = [
      await as(alice, "MKCOL", "/remote.php/webdav/Docs%20A"),
      await as(alice, "PUT", "/remote.php/webdav/Docs%20A/r%C3%A9sum%C3%A9.txt"),
      await as(alice, "PUT", "/remote.php/dav/files/alice/Docs%20A/r%C3%A9sum%C3%A9.txt"),
      await as(alice, "MOVE", "/remote.php/dav/files/alice/Docs%20A/r%C3%A9sum%C3%A9.txt", {
        destination: `${base}/remote.php/dav/files/alice/Docs%20A/cv.txt`,
      }),
      await as(alice, "DELETE", "/remote.php/webdav/missing.txt"),
      await as(undefined, "PUT", "/remote.php/webdav/anonymous.txt"),
      await as("Bearer wrong-token", "PUT", "/remote.php/webdav/forged.txt"),
      await as(alice, "PROPFIND", "/remote.php/webdav/"),
      await as(alice, "DELETE", "/remote.php/webdav/Docs%20A/cv.txt"),
    ];
    assert.deepEqual(statuses, [201, 201, 204, 201, 404, 401, 401, 207, 204]);
    // nginx writes a request's line once it has answered: wait for the eight writes (not PROPFIND).
    await waitFor("nginx's log lines", () => readIfExists(log).split("\n").filter(Boolean).length === 8, 10_000, 50);

    const report = await t.services.fileLog.follow(log);
    ctx.diagnostic(readIfExists(log));
    assert.deepEqual(report, { lines: 8, published: 5, ignored: 3, unusable: 0 });
    const rows = await t.services.storage.db
      .selectFrom("activity")
      .select(["type", "subject", "object_type", "object_name", "user", "affecteduser"])
      .where("app", "=", "files")
      .orderBy("activity_id")
      .execute();
    const aliceRow = { object_type: "files", user: "alice", affecteduser: "alice" };
    assert.deepEqual(rows, [
      { type: "file_created", subject: "created_self", object_name: "/Docs A", ...aliceRow },
      { type: "file_created", subject: "created_self", object_name: "/Docs A/résumé.txt", ...aliceRow },
      { type: "file_changed", subject: "changed_self", object_name: "/Docs A/résumé.txt", ...aliceRow },
      { type: "file_changed", subject: "renamed_self", object_name: "/Docs A/cv.txt", ...aliceRow },
      { type: "file_deleted", subject: "deleted_self", object_name: "/Docs A/cv.txt", ...aliceRow },
    ]);
    assert.equal((await t.services.fileLog.follow(log)).published, 0, "a second round publishes nothing");
  });
});
