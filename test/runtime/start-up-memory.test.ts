import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "../support/occ.js";

const MODULE = pathToFileURL(path.join(REPO_ROOT, "src", "start-up-memory.ts")).href;

/**
 * Runs `program` (an ES module body; `leanStartUp` in scope) in a fresh Node with `flags`, and
 * returns what it printed as JSON. A process of its own: the V8 flags are process-wide.
 */
function runFresh(program: string, flags: string[] = []): Record<string, unknown> {
  const source = `const { leanStartUp } = await import(${JSON.stringify(MODULE)});\n${program}`;
  const out = execFileSync(process.execPath, [...flags, "--import", "tsx", "--input-type=module", "-e", source], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  return JSON.parse(out.trim().split("\n").pop() ?? "{}") as Record<string, unknown>;
}

/** Objects that all survive: what a start-up's module loading is made of. */
const YOUNG_GENERATION = `
import v8 from "node:v8";
const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
const kept = [];
const survive = () => { for (let i = 0; i < 300000; i++) kept.push({ i, s: "x" + i }); };
const before = newSpace();
const done = leanStartUp();
survive();
const held = newSpace();
done();
survive();
console.log(JSON.stringify({ before, held, after: newSpace() }));
`;

/** A function made hot enough for TurboFan, and whether TurboFan compiled it (V8's GetOptimizationStatus bit 6). */
const COMPILER = `
const status = new Function("f", "return %GetOptimizationStatus(f)");
const finish = new Function("%FinalizeOptimization()");
const optimised = () => {
  const f = new Function("x", "return x * 2 + 1");
  for (let i = 0; i < 3e6; i++) f(i);
  finish();
  for (let i = 0; i < 1e5; i++) f(i);
  return (status(f) & 64) !== 0;
};
const done = leanStartUp();
const during = optimised();
done();
console.log(JSON.stringify({ during, after: optimised() }));
`;

describe("the start-up's memory (src/start-up-memory.ts)", () => {
  it("the young generation keeps its size through the start-up, however much survives, and grows again afterwards", () => {
    const { before, held, after } = runFresh(YOUNG_GENERATION) as { before: number; held: number; after: number };
    // Its second semi-space may be committed at the first scavenge; it does not grow.
    assert.ok(held <= 2 * before, `new space ${before} → ${held} bytes during the start-up`);
    assert.ok(after > held, `new space ${held} → ${after} bytes afterwards`);
  });

  it("an operator's own young generation flag is left alone", () => {
    const { before, held } = runFresh(YOUNG_GENERATION, ["--max-semi-space-size=16"]) as { before: number; held: number };
    assert.ok(held > 2 * before, `new space ${before} → ${held} bytes: it grew as the operator allows`);
  });

  it("nothing is optimised by TurboFan during the start-up; hot code is again afterwards", () => {
    assert.deepEqual(runFresh(COMPILER, ["--allow-natives-syntax"]), { during: false, after: true });
  });

  it("an operator's own compiler flag is left alone", () => {
    assert.deepEqual(runFresh(COMPILER, ["--allow-natives-syntax", "--turbofan"]), { during: true, after: true });
  });
});
