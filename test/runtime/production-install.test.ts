import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { PRODUCT } from "../../src/product.js";
import { assertBuilt, childEnvironment, REPO_ROOT, runProcess } from "../support/occ.js";
import { parseExposition } from "../support/prometheus.js";
import { ServerProcess } from "../support/server-process.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";
import { type PackageJson, readJson } from "./support.js";

/**
 * A production install is a release tarball (`npm run release`, scripts/release.ts): unpacked,
 * checked against SHA256SUMS, linked as `current`, migrated with ./occ and started, on a machine
 * with neither a compiler nor npm (docs/deployment.md, "Installing a release"). The install steps
 * run here with a PATH that holds only the tools they name (sh, tar, gzip, sha256sum, ln, …, node),
 * and the test first shows that no compiler and no npm can be found on it.
 *
 * Under `npm test` the release reuses this checkout's build (`npm run release -- --reuse-build`:
 * dist/ and the compiled better-sqlite3 copied, production packages from npm's cache). With
 * KEYSTREAM_PRODUCTION_INSTALL=real (`.ci/run`) the literal `npm run release` runs instead:
 * dist/ compiled into the release and better-sqlite3 compiled by `npm ci --omit=dev`.
 */
const REAL = process.env.KEYSTREAM_PRODUCTION_INSTALL === "real";

/** What the install steps and the installed server may use: no compiler, no npm. */
const INSTALL_TOOLS = ["sh", "tar", "gzip", "sha256sum", "mkdir", "ln", "readlink", "dirname", "cat", "cp"];
const COMPILERS_AND_NPM = ["cc", "gcc", "g++", "c++", "clang", "make", "npm", "npx", "node-gyp"];

function npmEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: "false" };
  delete env.NODE_OPTIONS;
  return env;
}

/** A bin/ directory of symlinks to the install tools and node, found on this PATH. */
function toolsOnly(bin: string): string {
  fs.mkdirSync(bin);
  const directories = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  for (const tool of INSTALL_TOOLS) {
    const found = directories.map((dir) => path.join(dir, tool)).find((file) => fs.existsSync(file));
    assert.ok(found, `${tool} is on the PATH`);
    fs.symlinkSync(found, path.join(bin, tool));
  }
  fs.symlinkSync(process.execPath, path.join(bin, "node"));
  return bin;
}

async function sh(script: string, env: NodeJS.ProcessEnv, cwd: string) {
  return runProcess("/bin/sh", ["-c", script], env, undefined, cwd);
}

describe("installing a release tarball without a compiler and without npm (real processes)", () => {
  let root: string;
  let out: string;
  let opt: string;
  let bin: string;
  let version: string;
  let tarball: string;
  let commit: string;
  let storage: TestStorage;
  let releaseOutput = "";
  let installOutput = "";
  /** The environment of the install steps and of the installed server: PATH = bin/ only. */
  let bare: NodeJS.ProcessEnv;

  before(async () => {
    assertBuilt();
    root = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-production-"));
    out = path.join(root, "out");
    opt = path.join(root, "opt");
    bin = toolsOnly(path.join(root, "bin"));
    version = readJson<PackageJson>(path.join(REPO_ROOT, "package.json")).version ?? "";
    const args = ["run", "release", "--", "--out-dir", out, ...(REAL ? [] : ["--reuse-build"])];
    const made = await runProcess("npm", args, npmEnvironment(), undefined, REPO_ROOT);
    releaseOutput = made.stdout;
    assert.equal(made.code, 0, `npm ${args.join(" ")}\n${made.stdout}\n${made.stderr}`);
    tarball = fs.readdirSync(out).find((name) => name.endsWith(".tar.gz")) ?? "";

    storage = await createTestStorage();
    await storage.storage.close();
    bare = childEnvironment(storage, { PATH: bin });
    for (const name of Object.keys(bare)) if (name.startsWith("npm_")) delete bare[name];
    // The documented steps (docs/deployment.md, "Installing a release"), run by sh on that PATH.
    const install = await sh(
      [
        "set -e",
        `cd '${out}'`,
        "sha256sum -c SHA256SUMS",
        `mkdir -p '${opt}/releases/${version}'`,
        `tar -xzf '${out}/${tarball}' -C '${opt}/releases/${version}' --strip-components=1`,
        `ln -sfn 'releases/${version}' '${opt}/current'`,
        `'${opt}/current/occ' migrate`,
      ].join("\n"),
      bare,
      root,
    );
    installOutput = `${install.stdout}${install.stderr}`;
    assert.equal(install.code, 0, installOutput);
    commit = readJson<{ commit: string }>(path.join(opt, "current", "dist", "build-info.json")).commit;
  });
  after(async () => {
    await storage?.cleanup();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("the install environment finds the install tools and node, and no compiler and no npm", async () => {
    const found = await sh(COMPILERS_AND_NPM.map((tool) => `command -v '${tool}'`).join(" || "), bare, root);
    assert.notEqual(found.code, 0, `found on the install PATH: ${found.stdout}`);
    assert.equal(found.stdout, "");
    const tools = await sh([...INSTALL_TOOLS, "node"].map((tool) => `command -v '${tool}' >/dev/null`).join(" && "), bare, root);
    assert.equal(tools.code, 0, "the install tools are found: the PATH is not simply empty");
  });

  it("the tarball is named after version, platform, architecture and Node major, and SHA256SUMS verifies it", async () => {
    const major = process.versions.node.split(".")[0];
    assert.equal(tarball, `keystream-${version}-${process.platform}-${process.arch}-node${major}.tar.gz`);
    assert.match(installOutput, new RegExp(`^${tarball.replaceAll(".", "\\.")}: OK$`, "m"));
    // A damaged copy fails the check (sha256sum -c exits 1), so the check above means something.
    const damaged = path.join(root, "damaged");
    fs.mkdirSync(damaged);
    fs.cpSync(path.join(out, "SHA256SUMS"), path.join(damaged, "SHA256SUMS"));
    const bytes = fs.readFileSync(path.join(out, tarball));
    bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] ?? 0) ^ 0xff;
    fs.writeFileSync(path.join(damaged, tarball), bytes);
    const check = await sh("sha256sum -c SHA256SUMS", bare, damaged);
    assert.equal(check.code, 1);
    assert.match(check.stdout, /FAILED/);
  });

  it("the release holds the build, its commit, the documents and the production dependencies only", async () => {
    const current = path.join(opt, "current");
    for (const item of [
      "dist/main.js",
      "dist/cli/occ.js",
      "dist/vendor/kysely.js",
      "dist/vendor/jose.js",
      "dist/vendor/typebox.js",
      // The pages' scripts and stylesheet, which tsc does not emit (scripts/copy-assets.sh).
      "dist/http/assets/keystream.css",
      "dist/http/assets/passkeys.js",
      "occ",
      "package.json",
      "package-lock.json",
      "README.md",
      "CHANGELOG.md",
    ]) {
      assert.ok(fs.existsSync(path.join(current, item)), `${item} is in the release`);
    }
    for (const item of ["docs/deployment.md", "deploy/systemd/keystream.service"]) {
      assert.ok(fs.existsSync(path.join(current, item)), `${item} is in the release`);
    }
    for (const item of ["src", "test", ".git", "tsconfig.json"]) {
      assert.equal(fs.existsSync(path.join(current, item)), false, `${item} is not in the release`);
    }
    const manifest = readJson<PackageJson>(path.join(current, "package.json"));
    const installed = (name: string) => fs.existsSync(path.join(current, "node_modules", name, "package.json"));
    assert.deepEqual(Object.keys(manifest.devDependencies ?? {}).filter(installed), [], "no dev dependency is installed");
    for (const tool of ["typescript", "tsx", "playwright-core", ".bin/tsc"]) {
      assert.equal(fs.existsSync(path.join(current, "node_modules", tool)), false, `${tool} is absent`);
    }
    assert.deepEqual(
      Object.keys(manifest.dependencies ?? {}).filter((name) => !installed(name)),
      [],
    );
    const addon = path.join(current, "node_modules", "better-sqlite3");
    assert.ok(fs.existsSync(path.join(addon, "build", "Release", "better_sqlite3.node")), "the addon is compiled");
    assert.equal(fs.existsSync(path.join(addon, "deps")), false, "the addon's C sources are left out");
    // The commit this checkout is at, recorded when the release was built (never read at run time).
    const head = await runProcess("git", ["rev-parse", "HEAD"], npmEnvironment(), undefined, REPO_ROOT);
    if (head.code === 0) assert.ok(commit.startsWith(head.stdout.trim()), `${commit} is ${head.stdout}`);
    else assert.equal(commit, "unknown");
    assert.match(releaseOutput, new RegExp(`commit ${commit}`));
  });

  it("the installed release serves status.php and metrics naming its version and commit; ./occ names both", async () => {
    const current = path.join(opt, "current");
    const release = `${version}${commit === "unknown" ? "" : ` (commit ${commit.replace(/^([0-9a-f]{12})[0-9a-f]*/, "$1")})`}`;
    const server = new ServerProcess(storage, "release", {}, path.join(current, "dist", "main.js"), {
      ...bare,
      HOST: "127.0.0.1",
      PORT: "0",
      LOG_LEVEL: "info",
      KEYSTREAM_METRICS_PORT: "0",
    });
    try {
      const response = await fetch(`${await server.url()}/status.php`);
      assert.equal(response.status, 200);
      const status = (await response.json()) as { installed?: unknown; needsDbUpgrade?: unknown; versionstring?: unknown };
      assert.equal(status.installed, true);
      assert.equal(status.needsDbUpgrade, false, "occ migrate migrated the database");
      assert.equal(status.versionstring, `${PRODUCT.versionString} Keystream ${release}`);

      const login = await (await fetch(`${await server.url()}/index.php/login`)).text();
      const stylesheet = /<link rel="stylesheet" href="([^"]+)">/.exec(login)?.[1];
      assert.ok(stylesheet, "the login page names its stylesheet");
      const css = await fetch(`${await server.url()}${stylesheet}`);
      assert.equal(css.status, 200, "the release serves the stylesheet the page names");
      assert.match(String(css.headers.get("content-type")), /^text\/css/);

      const metricsUrl = String(JSON.parse((await server.waitFor(/^\{.*"msg":"metrics and health listening".*\}$/m))[0]).url);
      const metrics = parseExposition(await (await fetch(metricsUrl)).text());
      assert.equal(metrics.value("keystream_build_info", { version, commit }), 1);

      const occ = (args: string[]) => runProcess(path.join(current, "occ"), args, bare, undefined, current);
      const printed = await occ(["--version"]);
      assert.equal(printed.code, 0, printed.stderr);
      assert.equal(printed.stdout.trim(), `Keystream ${release}`);
      const occStatus = await occ(["status", "--output=json"]);
      assert.equal(occStatus.code, 0, occStatus.stderr);
      assert.equal((JSON.parse(occStatus.stdout) as { version?: unknown }).version, version);
    } finally {
      const { code } = await server.stop();
      assert.equal(code, 0, server.stderr);
    }
  });

  it("without a build and without TypeScript the install stops and says how to build", async () => {
    const unbuilt = path.join(root, "unbuilt");
    fs.mkdirSync(unbuilt);
    for (const file of ["package.json", "package-lock.json", "scripts/prepare.sh"]) {
      fs.cpSync(path.join(REPO_ROOT, file), path.join(unbuilt, file));
    }
    const result = await runProcess("npm", ["run", "prepare"], npmEnvironment(), undefined, unbuilt);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /dist\/ is missing and TypeScript is not installed/);
    assert.match(result.stderr, /npm ci && npm run build/);
  });
});
