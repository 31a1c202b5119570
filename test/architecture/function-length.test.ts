import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

/**
 * The function-length rule of biome.jsonc (Biome's `noExcessiveLinesPerFunction`, at most 80 lines
 * between a function's braces in src/http/), the configuration `npm run lint` uses: it fires on the
 * fixture's 81-line function, and neither on the 80-line one beside it nor outside src/http/.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixtures = path.join(root, "test/architecture/fixtures/function-length");

interface BiomeReport {
  diagnostics: Array<{ category: string; location: { path: string | { file: string }; start?: { line: number } } }>;
}

/** Biome's findings on the fixture tree, linted under the project's own configuration. */
function lintFixtures(workDir: string): string[] {
  fs.cpSync(path.join(fixtures, "src"), path.join(workDir, "src"), { recursive: true });
  fs.copyFileSync(path.join(root, "biome.jsonc"), path.join(workDir, "biome.jsonc"));
  let output: string;
  try {
    output = execFileSync(path.join(root, "node_modules/.bin/biome"), ["lint", "--reporter=json", "--max-diagnostics=none"], {
      cwd: workDir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? "");
  }
  const report = JSON.parse(output) as BiomeReport;
  return report.diagnostics.map((d) => {
    const file = typeof d.location.path === "string" ? d.location.path : d.location.path.file;
    return `${d.category}: ${file}`;
  });
}

describe("the function-length rule", () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-function-length-"));
  after(() => fs.rmSync(workDir, { recursive: true, force: true }));

  it("fires on a function of 81 lines in src/http/, and only there", () => {
    assert.deepEqual(lintFixtures(workDir), ["lint/complexity/noExcessiveLinesPerFunction: src/http/routes/handlers.ts"]);
  });
});
