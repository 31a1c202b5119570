/**
 * The build's second step (`npm run build`, scripts/prepare.sh), after `tsc`: the ES-module
 * packages the server loads as hundreds of files each are bundled into one file each under
 * dist/vendor/, and the imports of them in dist/ are pointed there.
 *
 * Why (docs/performance.md, "Footprint"): Node keeps a module record, its source text and its
 * loader's bookkeeping for every ES module file, and the loader's own work per file is most of a
 * start-up's time. TypeBox is 679 files, Kysely 262, jose 46; bundled, the same code is three
 * files, and a fresh server holds ≈ 5 MB less and is ready ≈ 0.15 s sooner. The bundles are the
 * packages' own code as installed (esbuild, names kept); the sources and the tests (tsx) import
 * the packages themselves. A dist/ built by `tsc` alone still runs, from node_modules.
 *
 *   node --import tsx scripts/vendor-esm.ts [dist directory (dist)]
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import ts from "typescript";

/** The packages bundled: ES-module builds of many files, imported by their main entry only. */
export const VENDORED = ["typebox", "kysely", "jose"] as const;

const ROOT = fileURLToPath(new URL("../", import.meta.url));

function packageOf(specifier: string): string | undefined {
  return VENDORED.find((name) => specifier === name || specifier.startsWith(`${name}/`));
}

function* javascriptFiles(directory: string): Generator<string> {
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) yield* javascriptFiles(file);
    else if (entry.name.endsWith(".js")) yield file;
  }
}

/** Each package's main entry as one ES module, dist/vendor/<name>.js. */
async function bundle(vendorDir: string): Promise<void> {
  for (const name of VENDORED) {
    await build({
      stdin: { contents: `export * from ${JSON.stringify(name)};`, resolveDir: ROOT, sourcefile: `${name}.js`, loader: "js" },
      outfile: path.join(vendorDir, `${name}.js`),
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      keepNames: true,
      sourcemap: true,
      logLevel: "warning",
    });
  }
}

/**
 * Points the imports of the vendored packages in one compiled file at the bundles. The module
 * specifiers are found by TypeScript's own import scanner (ts.preProcessFile: static and dynamic
 * imports and exports, never a string or a comment that looks like one). Returns whether it changed.
 */
function pointAtBundles(file: string, vendorDir: string): boolean {
  const text = fs.readFileSync(file, "utf8");
  const edits: Array<{ at: number; length: number; to: string }> = [];
  for (const reference of ts.preProcessFile(text, true, true).importedFiles) {
    const name = packageOf(reference.fileName);
    if (!name) continue;
    if (reference.fileName !== name) {
      throw new Error(`${file} imports ${reference.fileName}: only the main entry of ${name} is bundled (scripts/vendor-esm.ts)`);
    }
    // `pos` is the opening quote's offset.
    const at = reference.pos + 1;
    if (text.slice(at, at + name.length) !== name) throw new Error(`${file}: cannot find the import of ${name} at ${at}`);
    const relative = path
      .relative(path.dirname(file), path.join(vendorDir, `${name}.js`))
      .split(path.sep)
      .join("/");
    edits.push({ at, length: name.length, to: relative.startsWith(".") ? relative : `./${relative}` });
  }
  if (edits.length === 0) return false;
  let out = text;
  for (const edit of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, edit.at) + edit.to + out.slice(edit.at + edit.length);
  fs.writeFileSync(file, out);
  return true;
}

export async function vendorEsm(dist: string): Promise<{ files: number }> {
  const vendorDir = path.join(dist, "vendor");
  await bundle(vendorDir);
  let files = 0;
  for (const file of javascriptFiles(dist)) {
    if (file.startsWith(`${vendorDir}${path.sep}`)) continue;
    if (pointAtBundles(file, vendorDir)) files++;
  }
  return { files };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dist = path.resolve(process.argv[2] ?? path.join(ROOT, "dist"));
  vendorEsm(dist).then(
    ({ files }) =>
      process.stdout.write(
        `vendored ${VENDORED.join(", ")} into ${path.relative(ROOT, dist)}/vendor/ (${files} files point there)\n`,
      ),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
