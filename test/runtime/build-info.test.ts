import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { REPO_ROOT, runProcess } from "../support/occ.js";

/**
 * scripts/build-info.sh writes the commit a build was made from into build-info.json at build time
 * (src/product.ts reads it; nothing asks git at run time): the checkout's HEAD, "-dirty" when
 * tracked files differ from it, "unknown" outside a git checkout of the project.
 */
const env = () => {
  const copy: NodeJS.ProcessEnv = { ...process.env };
  delete copy.NODE_OPTIONS;
  return copy;
};

async function buildInfo(scriptRoot: string, out: string): Promise<string> {
  const result = await runProcess("sh", [path.join(scriptRoot, "scripts", "build-info.sh"), out], env(), undefined, scriptRoot);
  assert.equal(result.code, 0, result.stderr);
  return (JSON.parse(fs.readFileSync(path.join(out, "build-info.json"), "utf8")) as { commit: string }).commit;
}

describe("the commit recorded at build time", () => {
  it("is the checkout's HEAD, marked -dirty exactly when tracked files have uncommitted changes", async (t) => {
    const head = await runProcess("git", ["rev-parse", "HEAD"], env(), undefined, REPO_ROOT);
    if (head.code !== 0) return t.skip("this checkout is not a git repository");
    const dirty = (await runProcess("git", ["diff", "--quiet", "HEAD", "--"], env(), undefined, REPO_ROOT)).code !== 0;
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-build-info-"));
    try {
      assert.equal(await buildInfo(REPO_ROOT, out), `${head.stdout.trim()}${dirty ? "-dirty" : ""}`);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it("is unknown in a copy of the project outside any git checkout", async () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-build-info-"));
    try {
      fs.mkdirSync(path.join(copy, "scripts"));
      fs.cpSync(path.join(REPO_ROOT, "scripts", "build-info.sh"), path.join(copy, "scripts", "build-info.sh"));
      assert.equal(await buildInfo(copy, path.join(copy, "dist")), "unknown");
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
