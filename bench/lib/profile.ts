/**
 * A `node --cpu-prof` profile summarised as text: self time by module (a package in node_modules,
 * a file of ours, node's internals, GC, idle) and the top functions by self time.
 *
 *   node --import tsx bench/lib/profile.ts path/to/file.cpuprofile [top]
 */
import fs from "node:fs";
import { pathToFileURL } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function moduleOf(url: string, functionName: string): string {
  if (functionName === "(garbage collector)") return "(gc)";
  if (functionName === "(idle)" || functionName === "(program)") return functionName;
  if (url === "") return "(native)";
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  if (url.startsWith("node:")) return "node:internals";
  const ours = /\/(dist|src)\/(.+)$/.exec(url);
  if (ours) return `keystream ${ours[2]}`;
  return url;
}

export function summarizeProfile(file: string, top = 20): string {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  let total = 0;
  let busy = 0;
  const byModule = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    total += micros;
    if (functionName !== "(idle)") busy += micros;
    const module = moduleOf(url, functionName);
    byModule.set(module, (byModule.get(module) ?? 0) + micros);
    const key = `${functionName || "(anonymous)"} ${module}${url ? `:${lineNumber + 1}` : ""}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  }
  const pct = (micros: number) => `${((100 * micros) / Math.max(1, busy)).toFixed(1).padStart(5)} %`;
  const lines = [`${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (percentages of busy time)`];
  lines.push("self time by module:");
  for (const [name, micros] of [...byModule]
    .filter(([n]) => n !== "(idle)")
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    lines.push(`  ${pct(micros)}  ${name}`);
  }
  lines.push("top functions by self time:");
  for (const [name, micros] of [...byFunction]
    .filter(([n]) => !n.startsWith("(idle)"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    lines.push(`  ${pct(micros)}  ${name}`);
  }
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("usage: node --import tsx bench/lib/profile.ts FILE.cpuprofile [top]\n");
    process.exit(2);
  }
  process.stdout.write(`${summarizeProfile(file, Number(process.argv[3] ?? 30))}\n`);
}
