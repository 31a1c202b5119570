import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { runOcc } from "../support/occ.js";
import { ServerProcess } from "../support/server-process.js";
import { createTestStorage } from "../support/storage.js";

/**
 * Security review #9: the data directory (database with password hashes and every user's
 * activity, config.json, the client-secret key) is readable by its owner alone, for a fresh
 * install whatever the operator's umask, and an existing world-readable install is fixed at start.
 * Through the real `./occ` and `node dist/main.js`, which inherit this process's umask.
 */
const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** Each entry of the directory (not recursing) with its mode, sorted, as "name 600". */
function modes(directory: string): string[] {
  return fs
    .readdirSync(directory)
    .map((name) => `${name} ${mode(path.join(directory, name)).toString(8)}`)
    .sort();
}

describe("data directory permissions (security review #9)", () => {
  it("a fresh data directory is owner-only (0700, files 0600: database, -wal, -shm, config.json, key) even with umask 022", async () => {
    const storage = await createTestStorage({ migrate: false });
    await storage.storage.close();
    const previous = process.umask(0o022);
    const dataDir = path.join(storage.dataDir, "fresh");
    const target = { dataDir, databaseUrl: storage.databaseUrl };
    let server: ServerProcess | undefined;
    try {
      // config.json and, through a client's sealed secret, the key file; the database on SQLite.
      assert.equal((await runOcc(["config:system:set", "session.lifetime", "--value=3600"], target)).code, 0);
      const added = await runOcc(
        [
          "oauth2:add-client",
          "App",
          "permissions-client-id-0123456789abcdef",
          "permissions-secret-0123456789abcdef",
          "https://app.example/cb",
        ],
        target,
      );
      assert.equal(added.code, 0, added.stderr);
      server = new ServerProcess(target);
      const url = await server.url();
      // A write (the login page starts a session): SQLite now has its -wal and -shm files open.
      assert.equal((await fetch(`${url}/index.php/login`)).status, 200);

      assert.equal(mode(dataDir), 0o700);
      const expected = ["config.json 600", "oauth2-client-secrets.key 600"];
      if (!storage.databaseUrl) expected.push("keystream.sqlite 600", "keystream.sqlite-shm 600", "keystream.sqlite-wal 600");
      assert.deepEqual(modes(dataDir), expected.sort());
      assert.equal(server.logLines("data directory made readable by its owner only").length, 0, "nothing to fix");
    } finally {
      process.umask(previous);
      server?.child.kill("SIGKILL");
      await server?.exited;
      await storage.cleanup();
    }
  });

  it("an existing install with world-readable files is made owner-only at start, with a log line", async () => {
    const storage = await createTestStorage();
    await storage.storage.close();
    const { dataDir } = storage;
    let server: ServerProcess | undefined;
    try {
      assert.equal((await runOcc(["config:system:set", "session.lifetime", "--value=3600"], storage)).code, 0);
      // As an older Keystream left it: the directory 0755, the files 0644 (a subdirectory too).
      fs.mkdirSync(path.join(dataDir, "backups"));
      fs.writeFileSync(path.join(dataDir, "backups", "old.sqlite"), "x");
      const loose = fs.readdirSync(dataDir).map((name) => path.join(dataDir, name));
      for (const file of [...loose, path.join(dataDir, "backups", "old.sqlite")]) {
        fs.chmodSync(file, fs.statSync(file).isDirectory() ? 0o755 : 0o644);
      }
      fs.chmodSync(dataDir, 0o755);

      server = new ServerProcess(storage);
      await server.url();
      // pino writes asynchronously: wait for the line rather than assume it is out yet.
      await server.waitFor(/"msg":"data directory made readable by its owner only"/);
      assert.equal(mode(dataDir), 0o700);
      assert.equal(mode(path.join(dataDir, "backups")), 0o700);
      assert.equal(mode(path.join(dataDir, "backups", "old.sqlite")), 0o600);
      for (const entry of modes(dataDir)) assert.match(entry, / [67]00$/, entry);
      const [line] = server.logLines("data directory made readable by its owner only");
      assert.ok(line, server.stdout);
      assert.equal(line.level, "warn", "a warning (level names in the server log, issue 18)");
      const fixed = line.fixed as string[];
      for (const file of [dataDir, path.join(dataDir, "config.json"), path.join(dataDir, "backups", "old.sqlite")]) {
        assert.ok(fixed.includes(file), `${file} in ${JSON.stringify(fixed)}`);
      }
      if (!storage.databaseUrl) assert.ok(fixed.includes(path.join(dataDir, "keystream.sqlite")));
      assert.deepEqual(line.failed, []);
    } finally {
      server?.child.kill("SIGKILL");
      await server?.exited;
      await storage.cleanup();
    }
  });
});
