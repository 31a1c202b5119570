import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { VENDORED, vendorEsm } from "../../scripts/vendor-esm.js";
import { assertBuilt, REPO_ROOT } from "../support/occ.js";

const made: string[] = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A compiled tree of `files` (path → text) inside the repository, where the packages resolve. */
function distOf(files: Record<string, string>): string {
  fs.mkdirSync(path.join(REPO_ROOT, ".tmp"), { recursive: true });
  const dist = fs.mkdtempSync(path.join(REPO_ROOT, ".tmp", "vendor-test-"));
  made.push(dist);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dist, name)), { recursive: true });
    fs.writeFileSync(path.join(dist, name), text);
  }
  return dist;
}

const read = (dist: string, name: string) => fs.readFileSync(path.join(dist, name), "utf8");

describe("the build's vendored ES-module packages (scripts/vendor-esm.ts)", () => {
  it("points every import of a vendored package at its one-file bundle, and nothing that only looks like one", async () => {
    const dist = distOf({
      "a.js": [
        'import { Type } from "typebox";',
        '// import { sql } from "kysely";',
        "export const quoted = 'from \"jose\"';",
        "export const schema = Type.String({ minLength: 2 });",
        'export const loadKysely = () => import("kysely");',
        "",
      ].join("\n"),
      "nested/b.js": 'export { sql } from "kysely";\nimport * as jose from "jose";\nexport const random = jose.base64url;\n',
      "c.js": 'import fs from "node:fs";\nexport const exists = fs.existsSync;\n',
    });
    const { files } = await vendorEsm(dist);
    assert.equal(files, 2);
    assert.deepEqual(
      fs
        .readdirSync(path.join(dist, "vendor"))
        .filter((f) => f.endsWith(".js"))
        .sort(),
      ["jose.js", "kysely.js", "typebox.js"],
    );
    const a = read(dist, "a.js");
    assert.match(a, /^import \{ Type \} from "\.\/vendor\/typebox\.js";$/m);
    assert.match(a, /^\/\/ import \{ sql \} from "kysely";$/m, "a comment is left as it is");
    assert.match(a, /'from "jose"'/, "a string is left as it is");
    assert.match(a, /import\("\.\/vendor\/kysely\.js"\)/);
    const b = read(dist, "nested/b.js");
    assert.match(b, /from "\.\.\/vendor\/kysely\.js"/);
    assert.match(b, /from "\.\.\/vendor\/jose\.js"/);
    assert.equal(read(dist, "c.js"), 'import fs from "node:fs";\nexport const exists = fs.existsSync;\n');
    // The bundles are the packages: the rewritten modules run.
    const moduleA = await import(pathToFileURL(path.join(dist, "a.js")).href);
    assert.equal(moduleA.schema.type, "string");
    assert.equal(moduleA.schema.minLength, 2);
    assert.equal(typeof (await moduleA.loadKysely()).Kysely, "function");
    const moduleB = await import(pathToFileURL(path.join(dist, "nested", "b.js")).href);
    assert.equal(typeof moduleB.sql, "function");
    assert.equal(moduleB.random.encode("hi"), "aGk");
  });

  it("refuses an import of a vendored package's subpath, which its bundle does not hold", async () => {
    const dist = distOf({ "d.js": 'import { x } from "kysely/helpers/postgres";\n' });
    await assert.rejects(vendorEsm(dist), /d\.js imports kysely\/helpers\/postgres/);
  });

  it("in the built dist/, no compiled file imports a vendored package from node_modules", () => {
    assertBuilt();
    const dist = path.join(REPO_ROOT, "dist");
    const bare: string[] = [];
    const walk = (directory: string) => {
      for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
        const file = path.join(directory, entry.name);
        if (entry.isDirectory()) {
          if (file !== path.join(dist, "vendor")) walk(file);
        } else if (entry.name.endsWith(".js")) {
          for (const { fileName } of ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true).importedFiles) {
            if (VENDORED.some((name) => fileName === name || fileName.startsWith(`${name}/`))) {
              bare.push(`${path.relative(dist, file)}: ${fileName}`);
            }
          }
        }
      }
    };
    walk(dist);
    assert.deepEqual(bare, [], "npm run build bundles them into dist/vendor/");
  });
});
