import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { assertBuilt, REPO_ROOT, runProcess } from "../support/occ.js";
import { ServerProcess } from "../support/server-process.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

/**
 * Issue 18 "one configuration" (review F6) with the real executables: an install whose
 * config/keystream.json names the instance, and processes started with no Keystream variable at all.
 */
/** A server that must refuse to start: its exit, or a failure (and a stop) if it started after all. */
async function refusedStart(server: ServerProcess): Promise<number | null> {
  const started = await server.waitFor(/Keystream is running at/).then(
    () => true,
    () => false,
  );
  if (started) {
    await server.stop();
    assert.fail(`${server.name} started: ${server.stdout}`);
  }
  return (await server.exited).code;
}

describe("one configuration file for the server and ./occ (real processes)", () => {
  let root: string;
  let install: string;
  let current: string;
  let configFile: string;
  let storage: TestStorage;
  /** What a shell without any Keystream variable has. */
  const bare = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...extra,
  });

  before(async () => {
    assertBuilt();
    root = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-configured-"));
    install = path.join(root, "releases", "1");
    fs.mkdirSync(install, { recursive: true });
    fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(install, "dist"), { recursive: true });
    for (const file of ["package.json", "occ"]) fs.copyFileSync(path.join(REPO_ROOT, file), path.join(install, file));
    fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, "node_modules")), path.join(install, "node_modules"));
    // The usual upgrade layout: the operator types `current/occ`.
    current = path.join(root, "current");
    fs.symlinkSync(install, current);
    storage = await createTestStorage();
    fs.mkdirSync(path.join(install, "config"));
    configFile = path.join(install, "config", "keystream.json");
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        host: "127.0.0.1",
        port: 0,
        data_dir: storage.dataDir,
        ...(storage.databaseUrl ? { database_url: storage.databaseUrl } : {}),
        log_level: "info",
      }),
    );
  });
  after(async () => {
    await storage.cleanup();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("the server and ./occ started with only the configuration file open the same instance", async () => {
    const added = await runProcess(
      path.join(current, "occ"),
      ["user:add", "--password-from-env", "filed"],
      bare({ OC_PASS: "a long password for filed" }),
      undefined,
      root,
    );
    assert.equal(added.code, 0, added.stderr);
    const status = await runProcess(path.join(current, "occ"), ["status", "--output=json"], bare(), undefined, root);
    assert.equal(status.code, 0, status.stderr);
    const shown = JSON.parse(status.stdout);
    assert.equal(shown.config_file, configFile, "occ status names the configuration file it read");
    assert.equal(shown.data_directory, storage.dataDir);

    const server = new ServerProcess(storage, "configured", {}, path.join(current, "dist", "main.js"), bare());
    try {
      const response = await fetch(`${await server.url()}/ocs/v1.php/cloud/user?format=json`, {
        headers: {
          authorization: `Basic ${Buffer.from("filed:a long password for filed").toString("base64")}`,
          "ocs-apirequest": "true",
        },
      });
      assert.equal(response.status, 200, "the user occ added is known to the server");
      assert.equal(((await response.json()) as { ocs: { data: { id: string } } }).ocs.data.id, "filed");
    } finally {
      const { code } = await server.stop();
      assert.equal(code, 0, server.stderr);
    }
  });

  it("the environment overrides a key of the file", async () => {
    const elsewhere = fs.mkdtempSync(path.join(root, "empty-"));
    const result = await runProcess(
      path.join(current, "occ"),
      ["status", "--output=json"],
      bare({ KEYSTREAM_DATA_DIR: elsewhere }),
      undefined,
      root,
    );
    if (storage.databaseUrl) {
      // PostgreSQL: the file's database, the environment's data directory.
      assert.equal(result.code, 0, result.stderr);
      assert.equal(JSON.parse(result.stdout).data_directory, elsewhere);
    } else {
      // SQLite lives in the data directory: the environment's one holds no instance.
      assert.equal(result.code, 1);
      assert.match(result.stderr, new RegExp(`no Keystream instance in ${elsewhere}`));
    }
  });

  it("LOG_LEVEL=verbose refuses to start, naming the variable and the allowed values", async () => {
    const server = new ServerProcess(
      storage,
      "verbose",
      {},
      path.join(current, "dist", "main.js"),
      bare({ LOG_LEVEL: "verbose" }),
    );
    assert.equal(await refusedStart(server), 1);
    assert.match(server.stderr, /LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"/);
    const occ = await runProcess(path.join(current, "occ"), ["user:list"], bare({ PORT: "eighty" }), undefined, root);
    assert.equal(occ.code, 1);
    assert.match(occ.stderr, /PORT must be an integer from 0 to 65535, got "eighty"/);
  });

  it("an invalid config.json stops the start with the file, the key and the expected type", async () => {
    const hostSettings = path.join(storage.dataDir, "config.json");
    fs.writeFileSync(hostSettings, '{"maintenance": "false"}');
    try {
      const server = new ServerProcess(storage, "broken", {}, path.join(current, "dist", "main.js"), bare());
      assert.equal(await refusedStart(server), 1);
      assert.match(
        server.stderr,
        new RegExp(`${hostSettings}: "maintenance" must be a boolean \\(true or false\\), got "false"`),
      );
    } finally {
      fs.rmSync(hostSettings);
    }
  });
});
