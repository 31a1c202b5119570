import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

/**
 * Comments stand alone: they cite an RFC section, an upstream repository and path, or a document of
 * this repository (docs/upstream/, docs/spec/), never the tracker, a review or a research note a
 * reader of the repository cannot open.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** References a reader of the repository cannot follow. */
const UNREACHABLE = [
  { name: "an issue number", pattern: /\bissues? #?\d+\b/i },
  { name: "a review finding", pattern: /\b(review|security review|newcomer review)\b[^.\n]*\b(finding|#\d|F\d+)/i },
  { name: "a research note", pattern: /\bresearch( A\.\d| §\d|\/|, )/i },
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** Every comment line of a TypeScript file (`//` and the lines of a `/* … *\/` block). */
function commentLines(text: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  let inBlock = false;
  text.split("\n").forEach((source, i) => {
    const trimmed = source.trim();
    if (inBlock || trimmed.startsWith("/*")) {
      found.push({ line: i + 1, text: trimmed });
      inBlock = !trimmed.includes("*/");
      return;
    }
    const slashes = source.indexOf("//");
    if (
      slashes >= 0 &&
      !/["'`]/.test(
        source
          .slice(0, slashes)
          .replace(/[^"'`]/g, "")
          .slice(-1),
      )
    ) {
      found.push({ line: i + 1, text: source.slice(slashes) });
    }
  });
  return found;
}

function unreachableReferences(files: string[]): string[] {
  return files.flatMap((file) =>
    commentLines(fs.readFileSync(file, "utf8")).flatMap(({ line, text }) =>
      UNREACHABLE.filter(({ pattern }) => pattern.test(text)).map(
        ({ name }) => `${path.relative(root, file)}:${line} names ${name}: ${text}`,
      ),
    ),
  );
}

describe("comments stand alone", () => {
  it("no comment in src/ names an issue, a review finding or a research note", () => {
    assert.deepEqual(unreachableReferences(sourceFiles(path.join(root, "src"))), []);
  });

  it("the check finds each kind of unreachable reference", (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-comments-"));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "sample.ts");
    fs.writeFileSync(
      file,
      [
        "// the read ahead (issue 17)",
        "/**",
        " * revokes nothing (security review finding 3)",
        " * ownCloud's order (research A.1.2)",
        " */",
        "const x = 1; // RFC 6749 §4.1.3: fine",
      ].join("\n"),
    );
    const found = unreachableReferences([file]).map((entry) => entry.replace(/^.*names (.*?):.*$/, "$1"));
    assert.deepEqual(found, ["an issue number", "a review finding", "a research note"]);
  });
});
