import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { REPO_ROOT } from "../support/occ.js";
import { type PackageJson, readJson, semver } from "./support.js";

/**
 * Newcomer review F1: package.json said Node >= 20.12 while cookie@2.0.2 (through @fastify/cookie
 * and light-my-request) wants >= 22, and `npm ci` warned EBADENGINE. The declaration must be one
 * every installed package supports: each version in our range is in each package's range.
 * package-lock.json is the list `npm ci` installs, with each package's `engines` as published.
 */
interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}

const manifest = readJson<PackageJson>(path.join(REPO_ROOT, "package.json"));
const lock = readJson<{ packages: Record<string, LockEntry> }>(path.join(REPO_ROOT, "package-lock.json"));
const declared = manifest.engines?.node ?? "";

describe("the Node.js versions package.json declares", () => {
  it("every package npm ci installs supports every Node.js version in our engines range", () => {
    assert.ok(declared, "package.json declares engines.node");
    const unsupported: string[] = [];
    for (const [location, entry] of Object.entries(lock.packages)) {
      const wanted = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      if (!location || !wanted) continue;
      if (!semver.subset(declared, wanted)) {
        unsupported.push(`${location}@${entry.version} wants node ${wanted}${entry.dev ? " (dev)" : ""}`);
      }
    }
    assert.deepEqual(unsupported, [], `engines.node "${declared}" promises versions these packages do not support`);
  });

  it("the tests run on a declared Node.js version", () => {
    assert.ok(semver.satisfies(process.version, declared), `${process.version} is outside "${declared}"`);
  });

  it("the lockfile records the same declaration", () => {
    const root = lock.packages[""]?.engines;
    assert.deepEqual(root && !Array.isArray(root) ? root.node : undefined, declared);
  });
});
