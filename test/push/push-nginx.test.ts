import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { publish } from "../activity/support.js";
import { startNginx } from "../clients/harness/nginx.js";
import { freePort, ProcessSet, waitFor } from "../clients/harness/processes.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { connectAs, listenForPush } from "./support.js";

/**
 * The deployment's own nginx files (deploy/nginx/keystream-locations.conf, quoted in
 * docs/deployment.md) in front of Keystream: the websocket upgrade of /push/ws gets through.
 */
describe("push through nginx with the deployment's locations", () => {
  const processes = new ProcessSet();
  let t: TestApp;
  let work: string;
  let proxied: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
    const direct = await listenForPush(t.app);
    work = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-push-nginx-"));
    const port = await freePort();
    const keystream = direct.replace(/^ws:/, "http:").replace(/\/push\/ws$/, "");
    startNginx(processes, { dir: work, port, keystream, fileServer: `http://127.0.0.1:${await freePort()}` });
    await waitFor(
      "nginx to listen",
      () =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(port, "127.0.0.1", () => {
            socket.destroy();
            resolve(true);
          });
          socket.on("error", () => resolve(false));
        }),
      10_000,
      100,
    );
    proxied = `ws://127.0.0.1:${port}/push/ws`;
  });
  after(async () => {
    await processes.stopAll();
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("passes the upgrade on: the client authenticates and hears `notify_activity`", async () => {
    const { secret } = accepted(await t.services.appPasswords.create("alice", "desktop"));
    const client = await connectAs(proxied, "alice", secret);
    assert.equal(await client.next(), "authenticated");
    await publish(t, {
      app: "core",
      type: "security",
      affecteduser: "alice",
      user: "alice",
      subject: "changed_self",
      subjectparams: [],
    });
    assert.equal(await client.next(), "notify_activity");
    await client.close();
  });
});
