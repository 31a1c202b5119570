import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { REVOCATION_PATH } from "../../src/http/oauth-paths.js";
import { ACCESS_TOKEN_LIFETIME_SECONDS } from "../../src/oauth/domain/lifetimes.js";
import { basicAuthFor } from "../activity/support.js";
import { basic, createOAuthTestApp, exchangeCode, issueCode, PASSWORD, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { listenOnLoopback } from "../support/browser.js";
import { accepted } from "../support/results.js";
import { FileServer } from "./harness/file-server.js";
import { fileActivityLog, startNginx } from "./harness/nginx.js";
import { freePort, ProcessSet, readIfExists, waitFor } from "./harness/processes.js";

/**
 * The deployment's file access (issue 14; deploy/nginx/, deploy/apache2/): nginx asks Keystream's
 * forward-auth endpoint about every `/remote.php/…` request, then passes it with the user to
 * Apache mod_dav_fs, which maps it to that user's folder. Plain HTTP requests through the real
 * nginx and Apache, with Keystream in process (its ManualClock expires tokens without waiting),
 * on the test database (SQLite, or PostgreSQL with KEYSTREAM_TEST_DATABASE_URL).
 */

const REQUIRED = ["/usr/sbin/nginx", "/usr/sbin/apache2", "/usr/lib/apache2/modules/mod_dav_fs.so"];
const missing = REQUIRED.filter((file) => !fs.existsSync(file));
// Never skipped in CI: the run fails with the reason instead.
const skip = missing.length > 0 && process.env.CI !== "true" ? `missing ${missing.join(", ")} (test/clients/install.sh)` : false;

describe("file requests through nginx, Keystream's forward-auth and the file server", { skip }, () => {
  const processes = new ProcessSet();
  let work: string;
  let t: TestApp;
  let files: FileServer;
  let proxy: string;
  let nginxDir: string;

  before(async () => {
    assert.deepEqual(missing, [], "nginx and Apache mod_dav_fs are installed (test/clients/install.sh)");
    work = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-file-proxy-"));
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "bob", password: PASSWORD, displayName: "Bob", email: "bob@example.com" }));
    // nginx dates its log lines by the real clock, decades before the test clock's: keep them in retention.
    t.services.settings.set("activity_expire_days", 36_500);
    const keystream = await listenOnLoopback(t);
    files = new FileServer(processes, { dir: path.join(work, "files"), port: await freePort() });
    await files.start();
    files.putOnDisk("alice", "alice.txt", "alice's notes\n");
    files.putOnDisk("bob", "bob.txt", "bob's secrets\n");
    const port = await freePort();
    nginxDir = path.join(work, "nginx");
    const nginx = startNginx(processes, { dir: nginxDir, port, keystream, fileServer: files.url });
    proxy = `http://127.0.0.1:${port}`;
    await waitFor(
      "nginx to answer",
      async () => {
        if (!nginx.isRunning()) throw new Error(`nginx exited: ${fs.readFileSync(path.join(work, "nginx/error.log"), "utf8")}`);
        return (await fetch(`${proxy}/status.php`).catch(() => undefined))?.status === 200;
      },
      15_000,
    );
  });

  after(async () => {
    await processes.stopAll();
    await t?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  /** A fresh access token for alice (authorization code flow, WEB_CLIENT). */
  async function aliceToken(): Promise<string> {
    const response = await exchangeCode(t, await issueCode(t));
    assert.equal(response.statusCode, 200, response.body);
    return (response.json() as { access_token: string }).access_token;
  }

  function request(method: string, davPath: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${proxy}${davPath}`, { method, headers });
  }

  /** How many requests the file server received whose path contains `fragment`. */
  const reached = (fragment: string) => files.requests().filter((r) => r.path.includes(fragment)).length;

  it("the owner's bearer token reads and writes their own folder under both DAV roots", async () => {
    const bearer = { authorization: `Bearer ${await aliceToken()}` };
    const listing = await request("PROPFIND", "/remote.php/webdav/", { ...bearer, depth: "1" });
    assert.equal(listing.status, 207);
    assert.equal(listing.headers.get("content-type"), "application/xml; charset=utf-8");
    const body = await listing.text();
    assert.match(body, /<D:href>\/remote\.php\/webdav\/alice\.txt<\/D:href>/);
    assert.match(body, /getetag>(W\/)?"[^"]+"</);
    assert.doesNotMatch(body, /bob/);
    const nextcloudRoot = await request("PROPFIND", "/remote.php/dav/files/alice/", { ...bearer, depth: "1" });
    assert.equal(nextcloudRoot.status, 207);
    assert.match(await nextcloudRoot.text(), /<D:href>\/remote\.php\/dav\/files\/alice\/alice\.txt<\/D:href>/);
    const put = await fetch(`${proxy}/remote.php/dav/files/alice/uploaded.txt`, { method: "PUT", headers: bearer, body: "up\n" });
    assert.equal(put.status, 201);
    const moved = await request("MOVE", "/remote.php/webdav/uploaded.txt", {
      ...bearer,
      destination: "https://localhost/remote.php/webdav/renamed.txt",
    });
    assert.equal(moved.status, 201);
    assert.equal(fs.readFileSync(path.join(files.folderOf("alice"), "renamed.txt"), "utf8"), "up\n");
    assert.equal(await (await request("GET", "/remote.php/webdav/alice.txt", bearer)).text(), "alice's notes\n");
  });

  it("an upload's answer carries an ETag, which the ownCloud client needs to count it done", async () => {
    const bearer = { authorization: `Bearer ${await aliceToken()}` };
    const put = await fetch(`${proxy}/remote.php/webdav/with-etag.txt`, { method: "PUT", headers: bearer, body: "tagged\n" });
    assert.equal(put.status, 201);
    assert.match(put.headers.get("etag") ?? "", /^"keystream-put-[^"]+"$/);
  });

  it("every PROPFIND entry carries an oc:id, which a rename keeps and another file does not share", async () => {
    const bearer = { authorization: `Bearer ${await aliceToken()}` };
    files.putOnDisk("alice", "id-before.txt", "same\n");
    files.putOnDisk("alice", "id-other.txt", "same\n");
    const ids = async () => {
      const response = await request("PROPFIND", "/remote.php/webdav/", { ...bearer, depth: "1" });
      assert.equal(response.status, 207);
      const entries = (await response.text()).split("</D:response>").slice(0, -1);
      return new Map(
        entries.map((entry) => [
          /<D:href>([^<]+)<\/D:href>/.exec(entry)?.[1] ?? "",
          /<oc:id xmlns:oc="http:\/\/owncloud\.org\/ns">([^<]+)<\/oc:id>/.exec(entry)?.[1],
        ]),
      );
    };
    const before = await ids();
    for (const [href, id] of before) assert.ok(id, `${href} has an oc:id`);
    const id = before.get("/remote.php/webdav/id-before.txt");
    assert.notEqual(id, before.get("/remote.php/webdav/id-other.txt"));
    const moved = await request("MOVE", "/remote.php/webdav/id-before.txt", {
      ...bearer,
      destination: "https://localhost/remote.php/webdav/id-after.txt",
    });
    assert.equal(moved.status, 201);
    assert.equal((await ids()).get("/remote.php/webdav/id-after.txt"), id);
  });

  it("an anonymous request gets the Bearer challenge and never reaches the file server", async () => {
    const before = reached("/anonymous-probe");
    for (const method of ["PROPFIND", "GET", "PUT", "DELETE"]) {
      const response = await request(method, "/remote.php/dav/files/bob/anonymous-probe");
      assert.equal(response.status, 401, method);
      assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer realm="/);
    }
    const webdav = await request("PROPFIND", "/remote.php/webdav/anonymous-probe");
    assert.equal(webdav.status, 401);
    assert.equal(reached("/anonymous-probe"), before);
    assert.equal(files.requests().filter((r) => r.user === "-").length, 0, "every request the file server saw named a user");
  });

  it("a path naming another user's folder is refused by nginx before the file server is asked", async () => {
    const bearer = { authorization: `Bearer ${await aliceToken()}` };
    for (const [method, davPath] of [
      ["GET", "/remote.php/dav/files/bob/bob.txt"],
      ["PROPFIND", "/remote.php/dav/files/bob/"],
      ["DELETE", "/remote.php/dav/files/bob/bob.txt"],
      ["GET", "/remote.php/dav/files/%62ob/bob.txt"], // percent-encoded: nginx compares the decoded path
      ["GET", "/remote.php/dav/files/alicex/bob.txt"], // a name that merely starts like the user's
      ["GET", "/remote.php/dav/files/ALICE/bob.txt"],
      ["PROPFIND", "/remote.php/dav/files//"],
    ] as const) {
      const response = await request(method, davPath, { ...bearer, depth: "0" });
      assert.equal(response.status, 403, `${method} ${davPath}`);
    }
    assert.equal(reached("bob.txt"), 0);
    assert.equal(reached("/dav/files/bob"), 0);
    assert.equal(fs.readFileSync(path.join(files.folderOf("bob"), "bob.txt"), "utf8"), "bob's secrets\n");
  });

  it("a MOVE or COPY with a Destination outside the user's folder is refused by nginx", async () => {
    const bearer = { authorization: `Bearer ${await aliceToken()}` };
    files.putOnDisk("alice", "to-move.txt", "mine\n");
    for (const [method, destination] of [
      ["COPY", "https://localhost/remote.php/dav/files/bob/stolen.txt"],
      ["MOVE", "https://localhost/remote.php/dav/files/bob/stolen.txt"],
      ["MOVE", "https://localhost/index.php/elsewhere.txt"],
      ["MOVE", "/remote.php/dav/files/alice/relative.txt"], // not an absolute URI (RFC 4918 §10.3)
    ] as const) {
      const response = await request(method, "/remote.php/dav/files/alice/to-move.txt", { ...bearer, destination });
      assert.equal(response.status, 403, `${method} → ${destination}`);
    }
    assert.equal(reached("to-move.txt"), 0);
    assert.deepEqual(files.listOnDisk("bob"), ["bob.txt"]);
  });

  it("an X-Keystream-User header sent by the client is replaced, never believed", async () => {
    const forged = await request("GET", "/remote.php/webdav/bob.txt", { "x-keystream-user": "bob" });
    assert.equal(forged.status, 401);
    const withToken = await request("GET", "/remote.php/webdav/bob.txt", {
      authorization: `Bearer ${await aliceToken()}`,
      "x-keystream-user": "bob",
    });
    assert.equal(withToken.status, 404, "alice's folder has no bob.txt");
    assert.ok(files.requests().every((r) => r.user !== "bob"));
  });

  it("a revoked token reaches no file", async () => {
    const token = await aliceToken();
    assert.equal((await request("GET", "/remote.php/webdav/alice.txt", { authorization: `Bearer ${token}` })).status, 200);
    // RFC 7009 revocation by the client the token was issued to.
    const revoked = await t.app.inject({
      method: "POST",
      url: REVOCATION_PATH,
      payload: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
      },
    });
    assert.equal(revoked.statusCode, 200);
    const before = reached("alice.txt");
    const response = await request("GET", "/remote.php/webdav/alice.txt", { authorization: `Bearer ${token}` });
    assert.equal(response.status, 401);
    assert.equal(reached("alice.txt"), before);
  });

  it("an expired token reaches no file", async () => {
    const token = await aliceToken();
    assert.equal((await request("GET", "/remote.php/webdav/alice.txt", { authorization: `Bearer ${token}` })).status, 200);
    t.clock.advance(ACCESS_TOKEN_LIFETIME_SECONDS + 1);
    const before = reached("alice.txt");
    const response = await request("GET", "/remote.php/webdav/alice.txt", { authorization: `Bearer ${token}` });
    assert.equal(response.status, 401);
    assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer /);
    assert.equal(reached("alice.txt"), before);
  });

  it("an app password (Basic) opens the same folder as the user's tokens", async () => {
    const response = await request("PROPFIND", "/remote.php/dav/files/alice/", {
      authorization: await basicAuthFor(t, "alice"),
      depth: "1",
    });
    assert.equal(response.status, 207);
    assert.match(await response.text(), /alice\.txt/);
  });

  it("a PUT, a MOVE and a DELETE through the proxy become file_created, a rename and file_deleted for that user; refused requests none", async () => {
    const log = fileActivityLog(nginxDir);
    // What the earlier tests wrote is published first: only this test's requests count below.
    await t.services.fileLog.follow(log);
    const last = await t.services.storage.db
      .selectFrom("activity")
      .select((eb) => eb.fn.max("activity_id").as("id"))
      .executeTakeFirst();
    const linesBefore = readIfExists(log).split("\n").filter(Boolean).length;
    const bearer = { authorization: `Bearer ${await aliceToken()}` };
    const statuses = [
      (await fetch(`${proxy}/remote.php/webdav/Activity%20test.txt`, { method: "PUT", headers: bearer, body: "a\n" })).status,
      (
        await request("MOVE", "/remote.php/dav/files/alice/Activity%20test.txt", {
          ...bearer,
          destination: "https://localhost/remote.php/dav/files/alice/Activity%20renamed.txt",
        })
      ).status,
      (await request("DELETE", "/remote.php/webdav/Activity%20renamed.txt", bearer)).status,
      (await request("PUT", "/remote.php/dav/files/bob/activity-foreign.txt", bearer)).status,
      (await request("DELETE", "/remote.php/dav/files/bob/bob.txt", bearer)).status,
      (await request("PUT", "/remote.php/webdav/activity-anonymous.txt")).status,
      (await request("DELETE", "/remote.php/webdav/activity-missing.txt", bearer)).status,
    ];
    assert.deepEqual(statuses, [201, 201, 204, 403, 403, 401, 404]);
    // nginx writes a line once it has answered; the anonymous request never reaches the logging location.
    const written = await waitFor(
      "nginx's file-activity log lines",
      () => {
        const lines = readIfExists(log).split("\n").filter(Boolean).slice(linesBefore);
        return lines.length >= 6 ? lines : undefined;
      },
      10_000,
      50,
    );
    const report = await t.services.fileLog.follow(log);
    assert.deepEqual({ lines: report.lines, published: report.published }, { lines: 6, published: 3 }, written.join("\n"));
    const rows = await t.services.storage.db
      .selectFrom("activity")
      .select(["app", "type", "subject", "object_type", "object_name", "user", "affecteduser"])
      .where("activity_id", ">", Number(last?.id ?? 0))
      .where("app", "=", "files")
      .orderBy("activity_id")
      .execute();
    const alice = { app: "files", object_type: "files", user: "alice", affecteduser: "alice" };
    assert.deepEqual(rows, [
      { type: "file_created", subject: "created_self", object_name: "/Activity test.txt", ...alice },
      { type: "file_changed", subject: "renamed_self", object_name: "/Activity renamed.txt", ...alice },
      { type: "file_deleted", subject: "deleted_self", object_name: "/Activity renamed.txt", ...alice },
    ]);
    assert.equal((await t.services.fileLog.follow(log)).published, 0, "a second read publishes nothing");
  });
});
