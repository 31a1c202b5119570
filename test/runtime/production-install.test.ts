import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { assertBuilt, childEnvironment, REPO_ROOT, runProcess } from "../support/occ.js";
import { ServerProcess } from "../support/server-process.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";
import { type PackageJson, readJson } from "./support.js";

/**
 * Newcomer review F2: `npm ci --omit=dev` failed (`tsc: not found` in the prepare script), so there
 * was no install without TypeScript, tsx, playwright…. The documented flow: build where the dev
 * dependencies are (`npm ci && npm run build`), then `npm ci --omit=dev` in the built tree.
 *
 * How the production tree is made here: `npm ci --omit=dev --prefer-offline --ignore-scripts` (npm's
 * cache), the one compiled addon (better-sqlite3's build/, compiled by this checkout's install for
 * this very Node) copied in instead of recompiled (~70 s), and the project's own `prepare` script run
 * as `npm ci` runs it. That is what `npm ci --omit=dev` does, minus the recompilation.
 * With KEYSTREAM_PRODUCTION_INSTALL=real (`.ci/run`), the literal `npm ci --omit=dev` runs instead,
 * compilation included, and the same assertions follow.
 */
const REAL = process.env.KEYSTREAM_PRODUCTION_INSTALL === "real";

interface LockEntry {
  dev?: boolean;
  hasInstallScript?: boolean;
}

/** What an operator ships: the built checkout, without its node_modules (nor git, data, logs). */
function copyBuiltTree(target: string): void {
  const skip = new Set(["node_modules", ".git", "data", ".tmp"]);
  fs.cpSync(REPO_ROOT, target, {
    recursive: true,
    filter: (source) => !skip.has(path.relative(REPO_ROOT, source).split(path.sep)[0] ?? ""),
  });
}

function npmEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: "false" };
  delete env.NODE_OPTIONS;
  return env;
}

async function npm(args: string[], cwd: string) {
  const result = await runProcess("npm", args, npmEnvironment(), undefined, cwd);
  assert.equal(result.code, 0, `npm ${args.join(" ")}\n${result.stdout}\n${result.stderr}`);
  return result;
}

describe("a production install without dev dependencies (real processes)", () => {
  let root: string;
  let release: string;
  let storage: TestStorage;
  let installOutput = "";

  before(async () => {
    assertBuilt();
    root = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-production-"));
    release = path.join(root, "release");
    copyBuiltTree(release);
    if (REAL) {
      installOutput = (await npm(["ci", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"], release)).stdout;
    } else {
      await npm(["ci", "--omit=dev", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"], release);
      const lock = readJson<{ packages: Record<string, LockEntry> }>(path.join(release, "package-lock.json"));
      for (const [location, entry] of Object.entries(lock.packages)) {
        if (!location || entry.dev || !entry.hasInstallScript) continue;
        const built = path.join(REPO_ROOT, location, "build");
        assert.ok(fs.existsSync(built), `${location} has an install script and no build/ to copy: extend this test`);
        fs.cpSync(built, path.join(release, location, "build"), { recursive: true });
      }
      installOutput = (await npm(["run", "prepare"], release)).stdout;
    }
    storage = await createTestStorage();
    await storage.storage.close();
  });
  after(async () => {
    await storage?.cleanup();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("installs the production dependencies only, keeping the existing build", () => {
    const manifest = readJson<PackageJson>(path.join(release, "package.json"));
    const installed = (name: string) => fs.existsSync(path.join(release, "node_modules", name, "package.json"));
    const devPresent = Object.keys(manifest.devDependencies ?? {}).filter(installed);
    assert.deepEqual(devPresent, [], "no dev dependency is installed");
    for (const tool of ["typescript", "tsx", "playwright-core", ".bin/tsc"]) {
      assert.equal(fs.existsSync(path.join(release, "node_modules", tool)), false, `${tool} is absent`);
    }
    assert.deepEqual(
      Object.keys(manifest.dependencies ?? {}).filter((name) => !installed(name)),
      [],
    );
    assert.match(installOutput, /TypeScript is not installed \(production install\): using the existing build in dist\//);
  });

  it("node dist/main.js serves status.php and ./occ status reads the instance", { timeout: 120_000 }, async () => {
    const server = new ServerProcess(storage, "production install", {}, path.join(release, "dist", "main.js"));
    try {
      const response = await fetch(`${await server.url()}/status.php`);
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { installed?: unknown }).installed, true);
      const status = await runProcess(
        path.join(release, "occ"),
        ["status", "--output=json"],
        childEnvironment(storage),
        undefined,
        release,
      );
      assert.equal(status.code, 0, status.stderr);
      assert.equal(status.stderr, "");
      assert.ok(JSON.parse(status.stdout), status.stdout);
    } finally {
      const { code } = await server.stop();
      assert.equal(code, 0, server.stderr);
    }
  });

  it("without a build and without TypeScript the install stops and says how to build", async () => {
    const bare = path.join(root, "unbuilt");
    fs.mkdirSync(bare);
    for (const file of ["package.json", "package-lock.json", "scripts/prepare.sh"]) {
      fs.cpSync(path.join(REPO_ROOT, file), path.join(bare, file));
    }
    const result = await runProcess("npm", ["run", "prepare"], npmEnvironment(), undefined, bare);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /dist\/ is missing and TypeScript is not installed/);
    assert.match(result.stderr, /npm ci && npm run build/);
  });
});
