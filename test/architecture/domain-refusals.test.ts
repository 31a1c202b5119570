import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

/**
 * A domain refuses by returning a Refusal (src/refusal.ts, docs/architecture.md "Refusals"), not by
 * throwing: no `throw` of an error class declared in a domain folder anywhere in src/.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The domain folders, read from .dependency-cruiser.cjs, the one place that names them. */
const DOMAIN_FOLDERS = domainFoldersOfTheDependencyRules();

function domainFoldersOfTheDependencyRules(): string[] {
  const rules = fs.readFileSync(path.join(root, ".dependency-cruiser.cjs"), "utf8");
  const list = /const DOMAIN_FOLDERS = (\[[^\]]*\]);/.exec(rules)?.[1];
  assert.ok(list, ".dependency-cruiser.cjs names its DOMAIN_FOLDERS");
  const folders: unknown = JSON.parse(list.replace(/,\s*\]$/, "]"));
  assert.ok(Array.isArray(folders) && folders.length > 0);
  return folders as string[];
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** `file:line throws Name` for every throw of a class `…Error` declared in a domain folder of `srcDir`. */
function thrownDomainErrors(srcDir: string): string[] {
  const files = sourceFiles(srcDir);
  const inDomain = (file: string) => DOMAIN_FOLDERS.includes(path.relative(srcDir, file).split(path.sep)[0] ?? "");
  const classes = new Set(
    files
      .filter(inDomain)
      .flatMap((file) => [...fs.readFileSync(file, "utf8").matchAll(/\bclass\s+(\w+Error)\b/g)].map((match) => match[1] ?? "")),
  );
  return files.flatMap((file) =>
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, i) => {
        const thrown = /\bthrow\s+new\s+(\w+)\s*\(/.exec(line)?.[1];
        return thrown !== undefined && classes.has(thrown) ? [`${path.relative(root, file)}:${i + 1} throws ${thrown}`] : [];
      }),
  );
}

describe("domains refuse with a value", () => {
  it("no code in src/ throws an error class of a domain folder", () => {
    assert.deepEqual(thrownDomainErrors(path.join(root, "src")), []);
  });

  it("the check finds a domain error thrown in its domain and in a route, and lets a plain Error be", () => {
    const fixture = path.join(root, "test/architecture/fixtures/thrown-refusals/src");
    assert.deepEqual(thrownDomainErrors(fixture), [
      "test/architecture/fixtures/thrown-refusals/src/accounts/errors.ts:5 throws WidgetError",
      "test/architecture/fixtures/thrown-refusals/src/http/widgets.ts:4 throws WidgetError",
    ]);
  });
});
