import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import { HostSettings } from "../../src/config/host-settings.js";
import { ConfigurationError } from "../../src/config/setting.js";
import { assertBuilt, COMPILED_MAIN, REPO_ROOT } from "../support/occ.js";
import { ServerProcess } from "../support/server-process.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

const runningAsRoot = process.geteuid?.() === 0;
const NOBODY = { uid: 65534, gid: 65534 };

/** Polls `probe` (every 250 ms, at most 20 s) until it returns true; the last answer names what was seen. */
async function eventually(what: string, probe: () => Promise<{ ok: boolean; seen: string }>): Promise<void> {
  const deadline = Date.now() + 20_000;
  let seen = "";
  while (Date.now() < deadline) {
    const answer = await probe();
    if (answer.ok) return;
    seen = answer.seen;
    await delay(250);
  }
  assert.fail(`${what} never happened; last seen: ${seen}`);
}

/**
 * The operator's accident: config.json rewritten by occ run as another user (root), so the server,
 * running as the data directory's owner, cannot read it; then the owner fixed with chown. As root
 * the server runs as nobody and the file is given to root and back; otherwise the server runs as
 * this user and the file's mode is taken away and given back. Neither changes its modification time.
 */
describe("a server that could not read config.json reads it again once its owner or mode is fixed", () => {
  let storage: TestStorage;
  let server: ServerProcess | undefined;
  let file: string;
  const serverUser = runningAsRoot ? NOBODY : undefined;

  before(async () => {
    assertBuilt();
    storage = await createTestStorage();
    file = path.join(storage.dataDir, "config.json");
  });
  after(async () => {
    await server?.stop();
    await storage.cleanup();
  });

  it("readiness goes DOWN naming the permission problem, and comes back UP on its own after the fix", async (t) => {
    if (serverUser) {
      const probe = spawnSync(
        process.execPath,
        ["-e", `require("fs").accessSync(${JSON.stringify(COMPILED_MAIN)}, 4)`],
        serverUser,
      );
      if (probe.status !== 0) {
        t.skip(`nobody (65534) cannot read ${REPO_ROOT}, so the server cannot run as another user than root here`);
        return;
      }
    }
    new HostSettings(storage.dataDir).set("session.lifetime", 3600);
    if (serverUser) {
      for (const entry of [storage.dataDir, ...fs.readdirSync(storage.dataDir).map((name) => path.join(storage.dataDir, name))]) {
        fs.chownSync(entry, serverUser.uid, serverUser.gid);
      }
    }
    server = new ServerProcess(storage, "server", {}, COMPILED_MAIN, undefined, serverUser);
    const url = await server.url();
    const ready = async () => {
      const response = await fetch(`${url}/health/ready`);
      return { status: response.status, body: await response.text() };
    };
    assert.equal((await ready()).status, 200);

    // What occ as root did: a new config.json (rename), owner-only, root's.
    new HostSettings(storage.dataDir).set("session.lifetime", 7200);
    if (!serverUser) fs.chmodSync(file, 0o000);
    await eventually("readiness DOWN for the settings", async () => {
      const answer = await ready();
      return { ok: answer.status === 503 && /"name":"settings","status":"DOWN"/.test(answer.body), seen: answer.body };
    });
    // The log is written in batches: wait for the line.
    const [logged = ""] = await server.waitFor(/.*"event":"host_settings_invalid".*/);
    assert.match(logged, /EACCES: permission denied/);
    assert.match(logged, /the data directory's files must belong to \S+, the user this process runs as: chown -R \S+ /);

    const mtime = fs.statSync(file).mtimeMs;
    if (serverUser) fs.chownSync(file, serverUser.uid, serverUser.gid);
    else fs.chmodSync(file, 0o600);
    assert.equal(fs.statSync(file).mtimeMs, mtime, "the fix changed no modification time");
    await eventually("readiness UP again", async () => {
      const answer = await ready();
      return { ok: answer.status === 200, seen: answer.body };
    });
    await server.waitFor(/"event":"host_settings_recovered"/);
    assert.equal(server.logLines(`${file} is valid again`).length, 1);
  });
});

describe("a config.json read the file system refused (HostSettings)", () => {
  it("before any good read: stops the reader with the file and the error", (t) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-settings-"));
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const file = path.join(dataDir, "config.json");
    // A directory where the file should be: an error of the file system (EISDIR) whoever reads it.
    fs.mkdirSync(file);
    assert.throws(
      () => new HostSettings(dataDir).load(),
      (error: Error) => error instanceof ConfigurationError && error.message.startsWith(`${file}: EISDIR`),
    );
  });

  it("after a good read: the last good values stay, and the file is read again at the next check though its modification time is the refused one's", (t) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-settings-"));
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const file = path.join(dataDir, "config.json");
    const settings = new HostSettings(dataDir);
    settings.set("session.lifetime", 3600);
    fs.rmSync(file);
    fs.mkdirSync(file);
    const refusedAt = new Date(Date.now() + 60_000);
    fs.utimesSync(file, refusedAt, refusedAt);
    settings.load();
    assert.match(settings.problem() ?? "", /EISDIR/);
    assert.equal(settings.get("session.lifetime"), 3600, "the last good value stays in force");
    // Fixed without a new modification time (as chown or chmod leave it).
    fs.rmdirSync(file);
    fs.writeFileSync(file, '{"session.lifetime": 600}\n');
    fs.utimesSync(file, refusedAt, refusedAt);
    settings.load();
    assert.equal(settings.problem(), undefined);
    assert.equal(settings.get("session.lifetime"), 600);
  });
});
