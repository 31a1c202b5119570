import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { assertBuilt, childEnvironment, REPO_ROOT, runProcess } from "../support/occ.js";
import { ServerProcess } from "../support/server-process.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";
import { packageVersion } from "./support.js";

/**
 * The install layouts of the newcomer review (F4, F5): the checkout behind a symlinked directory
 * (`/opt/keystream/current → releases/X`), a copy under a path with a space, and `occ` symlinked
 * into a directory on the PATH. The real executables run, as an operator starts them.
 */
describe("./occ and node dist/main.js from any install path (real processes)", () => {
  let root: string;
  let storage: TestStorage;
  let symlinked: string;
  let spaced: string;
  let binOcc: string;

  before(async () => {
    assertBuilt();
    root = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-install-"));
    symlinked = path.join(root, "ks-current");
    fs.symlinkSync(REPO_ROOT, symlinked);
    spaced = path.join(root, "ks space");
    fs.mkdirSync(spaced);
    fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(spaced, "dist"), { recursive: true });
    for (const file of ["package.json", "occ"]) fs.copyFileSync(path.join(REPO_ROOT, file), path.join(spaced, file));
    fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, "node_modules")), path.join(spaced, "node_modules"));
    fs.mkdirSync(path.join(root, "bin"));
    binOcc = path.join(root, "bin", "occ");
    fs.symlinkSync(path.join(REPO_ROOT, "occ"), binOcc);
    storage = await createTestStorage();
  });
  after(async () => {
    await storage.cleanup();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const users = async () =>
    (await storage.storage.db.selectFrom("users").select("uid").orderBy("uid").execute()).map((row) => row.uid);

  it("./occ through a symlinked install directory runs the command", async () => {
    const result = await runProcess(path.join(symlinked, "occ"), ["user:add", "zed"], childEnvironment(storage), undefined, root);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.split("\n")[0], 'The user "zed" was created successfully');
    assert.ok((await users()).includes("zed"));
  });

  it("./occ and node dist/cli/occ.js under a path with a space run the command", async () => {
    const viaWrapper = await runProcess(path.join(spaced, "occ"), ["user:add", "spacey"], childEnvironment(storage));
    assert.equal(viaWrapper.code, 0, viaWrapper.stderr);
    assert.ok((await users()).includes("spacey"));
    const viaNode = await runProcess(
      process.execPath,
      [path.join(spaced, "dist", "cli", "occ.js"), "user:list", "--output=json"],
      childEnvironment(storage),
    );
    assert.equal(viaNode.code, 0, viaNode.stderr);
    assert.ok(Object.hasOwn(JSON.parse(viaNode.stdout), "spacey"));
  });

  it("occ symlinked into a PATH directory finds its install", async () => {
    const result = await runProcess(binOcc, ["--version"], childEnvironment(storage), undefined, root);
    assert.equal(result.code, 0, result.stderr);
    // The compiled occ names the commit `npm run build` recorded in dist/build-info.json.
    const { commit } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "dist", "build-info.json"), "utf8")) as { commit: string };
    const release = commit === "unknown" ? "" : ` (commit ${commit.replace(/^([0-9a-f]{12})[0-9a-f]*/, "$1")})`;
    assert.equal(result.stdout, `Keystream ${packageVersion()}${release}\n`);
  });

  it("node dist/main.js starts the server from a symlinked directory and from a path with a space", async () => {
    for (const install of [symlinked, spaced]) {
      const server = new ServerProcess(storage, install, {}, path.join(install, "dist", "main.js"));
      try {
        const response = await fetch(`${await server.url()}/status.php`);
        assert.equal(response.status, 200);
      } finally {
        const { code } = await server.stop();
        assert.equal(code, 0, `${install}: ${server.stderr}`);
      }
    }
  });

  it("./occ on an install that is not built and cannot be built says so and exits 1", async () => {
    const bare = path.join(root, "bare");
    fs.mkdirSync(bare);
    for (const file of ["package.json", "occ"]) fs.copyFileSync(path.join(REPO_ROOT, file), path.join(bare, file));
    const result = await runProcess(path.join(bare, "occ"), ["user:list"], childEnvironment(storage), undefined, root);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /is not built .*run 'npm ci && npm run build' in /);
    assert.doesNotMatch(result.stderr, /npx|tsc@/);
    assert.equal(result.stdout, "");
  });
});
