import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

/**
 * Services take their listeners and extension points when they are built, so the composition root
 * (src/services.ts, src/wiring/) reads as an order of construction and no service changes
 * behaviour once built (docs/architecture.md "Layers"). The check: no `use…(` or
 * `observe…(` method is called in src/, save the methods below that set nothing.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Named like setters, but each call records or spends one value: nothing is set for later. */
const NOT_SETTERS: ReadonlyMap<string, string> = new Map([
  ["observeQuery", "records one statement's duration in a histogram (Prometheus' observe)"],
  ["observeRequest", "records one request's duration in a histogram (Prometheus' observe)"],
  ["useStep", "spends one TOTP time step: a code is accepted once (RFC 6238 §5.2)"],
]);

/**
 * Late listeners that no constructor can take, by file. The host settings are loaded before the
 * storage opens (src/server.ts reads them first), and the audit log that listens to their changes
 * needs the storage.
 */
const LATE_BY_DESIGN: ReadonlyMap<string, readonly string[]> = new Map([["src/wiring/audit.ts", ["observeChanges"]]]);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** The text with its comments blanked (line numbers kept); a `//` after a colon or a quote is part of a URL or a string. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, " ")).replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** Every call of a `use[A-Z]…`/`observe[A-Z]…` method (`x.useY(`, also across a line break) not allowed above. */
function lateSetterCalls(files: string[]): string[] {
  return files.flatMap((file) => {
    const relative = path.relative(root, file).split(path.sep).join("/");
    const text = withoutComments(fs.readFileSync(file, "utf8"));
    return [...text.matchAll(/\.\s*((?:use|observe)[A-Z]\w*)\s*\(/g)].flatMap((match) => {
      const method = match[1] as string;
      if (NOT_SETTERS.has(method) || LATE_BY_DESIGN.get(relative)?.includes(method)) return [];
      const line = text.slice(0, match.index).split("\n").length;
      return [`${relative}:${line} calls ${method} after construction`];
    });
  });
}

describe("no late setters", () => {
  it("no use…/observe… method is called on a service in src/ (listeners go to constructors)", () => {
    assert.deepEqual(lateSetterCalls(sourceFiles(path.join(root, "src"))), []);
  });

  it("the check finds a late setter, also across a line break, and passes comments and recorders", (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-late-setters-"));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "sample.ts");
    fs.writeFileSync(
      file,
      [
        "users.useRemovalGuard((uid) => groups.refuseRemovingLastAdmin(uid));",
        "activity",
        "  .observeWritten((rows) => push.activitiesWritten(rows));",
        "// appPasswords.observeRevocations(...) in a comment is no call",
        "/** oauth.useEvents(listener) neither */",
        "metrics.observeQuery(ms, failed);",
        'const url = "https://example.org/useless"; // fine',
        "class Sample { useNothing(): void {} }",
      ].join("\n"),
    );
    const found = lateSetterCalls([file]).map((entry) => entry.replace(/^.*:(\d+) calls (\w+).*$/, "$1 $2"));
    assert.deepEqual(found, ["1 useRemovalGuard", "3 observeWritten"]);
  });
});
