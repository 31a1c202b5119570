/**
 * `npm run release`: the release tarball an operator installs without a compiler and without npm
 * (docs/deployment.md, "Installing a release"):
 *
 *   release/keystream-<version>-<platform>-<arch>-node<major>.tar.gz   one directory, keystream-<version>/
 *   release/SHA256SUMS                                                 `sha256sum -c` format
 *
 * The tarball holds dist/ (compiled from this checkout into the staging directory, with the commit in
 * dist/build-info.json: the checkout's own dist/ is left alone), package.json, package-lock.json, occ,
 * deploy/, docs/, README.md, CHANGELOG.md, LICENSE when there is one, and node_modules with the
 * production dependencies only, installed by `npm ci --omit=dev` in the staging directory: the
 * native addon (better-sqlite3) is compiled there for this Node, platform and architecture, hence
 * the name. Offline, node-gyp needs the system's Node headers: `npm_package_config_node_gyp_nodedir=/usr`
 * (as .ci/run sets it).
 *
 *   npm run release                              # into release/
 *   npm run release -- --out-dir /srv/releases
 *   npm run release -- --reuse-build             # this checkout's dist/ and compiled addon, compiling nothing
 *
 * --reuse-build (the quick variant test/runtime/production-install.test.ts makes under `npm test`)
 * ships this checkout's dist/ as `npm run build` left it, installs with --ignore-scripts and copies
 * the build/ of each production package that has an install script from this checkout's
 * node_modules: only right when dist/ is fresh and this checkout was installed with the same Node
 * major on the same platform (the addon is loaded before packing either way).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What an installed release needs besides dist/ and node_modules; LICENSE is optional. */
const SHIPPED = [
  "package.json",
  "package-lock.json",
  "occ",
  "deploy",
  "docs",
  "README.md",
  "CHANGELOG.md",
  // package.json's prepare and build scripts, so `npm ci --omit=dev` runs in the unpacked tree too.
  "scripts/prepare.sh",
  "scripts/build-info.sh",
];
const OPTIONAL = ["LICENSE", "LICENSE.md", "COPYING"];

interface LockEntry {
  dev?: boolean;
  hasInstallScript?: boolean;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  execFileSync(command, args, { cwd, env, stdio: "inherit" });
}

/** npm without the update check and without NODE_OPTIONS (tsx's loader is not for the install). */
function npmEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: "false" };
  delete env.NODE_OPTIONS;
  return env;
}

/** Production packages that compile something at install (lockfile `hasInstallScript`). */
function nativePackages(tree: string): string[] {
  const lock = JSON.parse(fs.readFileSync(path.join(tree, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  return Object.entries(lock.packages)
    .filter(([location, entry]) => location !== "" && !entry.dev && entry.hasInstallScript)
    .map(([location]) => location);
}

/**
 * Of a compiled addon, the loaded `build/Release/*.node` is what runs; the compiler's intermediate
 * files (build/Release/obj*, the static library) and the bundled C sources (deps/) are left out.
 */
function pruneNative(packageDir: string): void {
  fs.rmSync(path.join(packageDir, "deps"), { recursive: true, force: true });
  const build = path.join(packageDir, "build");
  if (!fs.existsSync(build)) return;
  for (const entry of fs.readdirSync(build)) {
    if (entry !== "Release") fs.rmSync(path.join(build, entry), { recursive: true, force: true });
  }
  const release = path.join(build, "Release");
  for (const entry of fs.readdirSync(release)) {
    if (!entry.endsWith(".node") || entry.startsWith("test_"))
      fs.rmSync(path.join(release, entry), { recursive: true, force: true });
  }
}

/** `SHA256SUMS` in sha256sum's format, this file's line replaced and the other files' lines kept. */
function recordChecksum(outDir: string, file: string): string {
  const digest = createHash("sha256")
    .update(fs.readFileSync(path.join(outDir, file)))
    .digest("hex");
  const sums = path.join(outDir, "SHA256SUMS");
  const kept = fs.existsSync(sums)
    ? fs
        .readFileSync(sums, "utf8")
        .split("\n")
        .filter((line) => line && !line.endsWith(`  ${file}`))
    : [];
  fs.writeFileSync(
    sums,
    `${[...kept, `${digest}  ${file}`].sort((a, b) => a.slice(66).localeCompare(b.slice(66))).join("\n")}\n`,
  );
  return digest;
}

function main(): void {
  const started = Date.now();
  const { values } = parseArgs({
    options: { "out-dir": { type: "string" }, "reuse-build": { type: "boolean", default: false } },
  });
  const outDir = path.resolve(values["out-dir"] ?? path.join(ROOT, "release"));
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  const nodeMajor = process.versions.node.split(".")[0];
  const top = `keystream-${manifest.version}`;
  const file = `${top}-${process.platform}-${process.arch}-node${nodeMajor}.tar.gz`;

  const work = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-release-"));
  const stage = path.join(work, top);
  try {
    fs.mkdirSync(stage);
    for (const item of SHIPPED) fs.cpSync(path.join(ROOT, item), path.join(stage, item), { recursive: true });
    for (const item of OPTIONAL.filter((name) => fs.existsSync(path.join(ROOT, name)))) {
      fs.cpSync(path.join(ROOT, item), path.join(stage, item));
    }

    const reuse = values["reuse-build"] === true;
    if (reuse) {
      if (!fs.existsSync(path.join(ROOT, "dist", "build-info.json"))) throw new Error("dist/ is not built: npm run build");
      fs.cpSync(path.join(ROOT, "dist"), path.join(stage, "dist"), { recursive: true });
    } else {
      console.log(`release: compiling dist/ into ${stage}`);
      run(path.join(ROOT, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json", "--outDir", path.join(stage, "dist")], ROOT);
      run(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "vendor-esm.ts"), path.join(stage, "dist")], ROOT);
      run("sh", [path.join(ROOT, "scripts", "copy-assets.sh"), path.join(stage, "dist")], ROOT);
      run("sh", [path.join(ROOT, "scripts", "build-info.sh"), path.join(stage, "dist")], ROOT);
    }
    const { commit } = JSON.parse(fs.readFileSync(path.join(stage, "dist", "build-info.json"), "utf8")) as { commit: string };
    if (!/^[0-9a-f]{40,64}$/.test(commit)) {
      console.warn(`release: WARNING: the build's commit is "${commit}": not a clean checkout of one commit`);
    }

    const npmFlags = ["--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"];
    if (reuse) {
      run("npm", ["ci", ...npmFlags, "--ignore-scripts"], stage, npmEnvironment());
      for (const location of nativePackages(stage)) {
        const built = path.join(ROOT, location, "build");
        if (!fs.existsSync(built)) throw new Error(`${location} has an install script and no build/ in this checkout`);
        fs.cpSync(built, path.join(stage, location, "build"), { recursive: true });
      }
    } else {
      run("npm", ["ci", ...npmFlags], stage, npmEnvironment());
    }
    for (const location of nativePackages(stage)) pruneNative(path.join(stage, location));
    // The tree must run as shipped: the addon loads and opens a database, occ starts.
    run(
      process.execPath,
      ["-e", "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"],
      stage,
      npmEnvironment(),
    );
    run(path.join(stage, "occ"), ["--version"], stage, npmEnvironment());

    fs.mkdirSync(outDir, { recursive: true });
    const tarball = path.join(outDir, file);
    run(
      "tar",
      // gzip -n: no file name and time stamp in the gzip header.
      ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "-I", "gzip -n", "-cf", tarball, "-C", work, top],
      ROOT,
    );
    const digest = recordChecksum(outDir, file);
    const size = fs.statSync(tarball).size;
    console.log(`release: ${tarball}`);
    console.log(`release: ${(size / 1024 / 1024).toFixed(1)} MiB, sha256 ${digest} (in ${path.join(outDir, "SHA256SUMS")})`);
    console.log(`release: version ${manifest.version}, commit ${commit}, took ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main();
