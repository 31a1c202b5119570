import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/**
 * HTML is written in views only (docs/architecture.md, http/): pure templates under
 * src/http/pages/ and src/http/console/views/. A route file or any other module of src/http/
 * takes values, calls a service and hands the values to a view; it holds no `html` template.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixtures = path.join(root, "test/architecture/fixtures");

/** Where `html` templates belong, relative to the root. */
const VIEW_FOLDERS = ["src/http/pages/", "src/http/console/views/"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** The lines of a file where an `html` tagged template starts (comments and strings do not count). */
function htmlTemplateLines(file: string): number[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === "html") {
      lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

/** Files under `<base>/src/http/` outside the view folders with an `html` template, relative to `base`. */
function filesWithTemplatesOutsideViews(base: string): string[] {
  const http = path.join(base, "src/http");
  return sourceFiles(http)
    .map((file) => path.relative(base, file).split(path.sep).join("/"))
    .filter((file) => !VIEW_FOLDERS.some((folder) => file.startsWith(folder)))
    .filter((file) => htmlTemplateLines(path.join(base, file)).length > 0)
    .sort();
}

describe("html templates live in views", () => {
  it("finds a template outside the views, and only there", () => {
    assert.deepEqual(filesWithTemplatesOutsideViews(fixtures), ["src/http/routes/account.ts"]);
  });

  it("the real src/http/ has none outside pages/ and console/views/", () => {
    const found = filesWithTemplatesOutsideViews(root);
    assert.deepEqual(found, [], "move these templates into a view (src/http/pages/ or src/http/console/views/)");
  });
});
