/** What a throughput scenario module (bench/scenarios/*.ts) gives the runner. */
import type { Goal } from "./goals.js";
import type { Contender } from "./measure.js";
import type { RunningServer } from "./processes.js";
import type { Target } from "./targets.js";

/** The servers a run started, shared by every throughput scenario. */
export interface BenchContext {
  /** The node:http ceiling. */
  bare: RunningServer;
  /** Fastify alone answering the ceiling's body. */
  fastify: RunningServer;
  peer: Target;
  /** Keystream on SQLite, then on PostgreSQL when there is one. */
  keystreams: Target[];
  /** One access token per OAuth target (peer and Keystream nodes), by target name. */
  accessTokens: Map<string, string>;
}

export interface ThroughputScenario {
  /** Its name in BENCH_ONLY and in the JSON results. */
  key: string;
  /** Logged when it starts: what is measured. */
  title: string;
  /** The table's scenario column. */
  label: string;
  /** The target whose throughput the others are divided by (paired per round). */
  reference: string;
  /** The target shown for a server, if any. */
  goal?(target: string): Goal | undefined;
  contenders(context: BenchContext): Promise<Contender[]>;
}
