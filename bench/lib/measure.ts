/** Interleaved, paired measurement of throughput scenarios (see bench/run.ts and docs/performance.md). */
import fs from "node:fs";
import { type LoadResult, median } from "./load.js";
import { DURATION, log, REPS, WARMUP } from "./settings.js";

export interface Figure {
  target: string;
  okPerSecond: number;
  /** Server CPU time (user + system, from /proc) per 2xx answer: steadier than req/s on a busy machine. */
  cpuMicrosPerOk: number | null;
  p50Ms: number;
  p99Ms: number;
  runs: LoadResult[];
}

export interface Contender {
  name: string;
  /** The server's process id, for its CPU time (Linux /proc). */
  pid?: number | undefined;
  /**
   * Work before a run that is not part of it (minting the peer's codes goes through the peer's own
   * process): done before the server's CPU time is read, so it does not count.
   */
  prepare?(seconds: number): Promise<void>;
  /** One bounded run; `seconds` is the run's length. */
  run(seconds: number): Promise<LoadResult>;
}

const CLOCK_TICKS = 100;

/** User + system CPU time of a process in µs (Linux /proc; undefined elsewhere). */
function cpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Warm-up for each, then REPS rounds, each round running every contender once (interleaved). */
export async function measure(scenario: string, contenders: Contender[]): Promise<Figure[]> {
  for (const c of contenders) {
    log(`  ${scenario}: warm-up ${c.name}`);
    await c.prepare?.(WARMUP);
    await c.run(WARMUP);
  }
  const runs = new Map<string, LoadResult[]>(contenders.map((c) => [c.name, []]));
  const cpu = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let rep = 1; rep <= REPS; rep++) {
    for (const c of contenders) {
      await c.prepare?.(DURATION);
      const before = cpuMicros(c.pid);
      const result = await c.run(DURATION);
      const after = cpuMicros(c.pid);
      runs.get(c.name)!.push(result);
      const perOk =
        before !== undefined && after !== undefined && result.okPerSecond > 0
          ? (after - before) / (result.okPerSecond * DURATION)
          : undefined;
      if (perOk !== undefined) cpu.get(c.name)!.push(perOk);
      log(
        `  ${scenario}: ${c.name} run ${rep}/${REPS}: ${Math.round(result.okPerSecond)} ok/s` +
          (perOk === undefined ? "" : `, ${Math.round(perOk)} µs CPU each`) +
          (result.non2xx || result.errors ? ` (non-2xx ${result.non2xx}, errors ${result.errors})` : ""),
      );
    }
  }
  return contenders.map((c) => {
    const list = runs.get(c.name)!;
    return {
      target: c.name,
      okPerSecond: median(list.map((r) => r.okPerSecond)),
      cpuMicrosPerOk: cpu.get(c.name)!.length > 0 ? median(cpu.get(c.name)!) : null,
      p50Ms: median(list.map((r) => r.p50Ms)),
      p99Ms: median(list.map((r) => r.p99Ms)),
      runs: list,
    };
  });
}

/**
 * A's throughput over B's, paired by round: each round's runs of all servers follow each other
 * within seconds, so a slow spell of the machine (they last seconds to tens of seconds here) falls
 * on both sides of a round's ratio; the median over rounds then drops the rounds it split.
 */
export function pairedRatio(a: Figure | undefined, b: Figure | undefined): number | null {
  if (!a || !b) return null;
  const perRound = a.runs.flatMap((run, round) => {
    const reference = b.runs[round];
    return reference && reference.okPerSecond > 0 ? [run.okPerSecond / reference.okPerSecond] : [];
  });
  return perRound.length > 0 ? median(perRound) : null;
}
