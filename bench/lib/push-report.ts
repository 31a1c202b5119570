/** The push scenarios' figures (bench/scenarios/push.ts) and their printed table. */
import { DEBOUNCE_MS } from "../../src/push/hub.js";
import type { MemoryReading } from "./push-harness.js";
import type { LatencySummary } from "./push-stats.js";

/** The issue's target for an idle socket's memory. */
export const TARGET_KB_PER_SOCKET = 20;

export interface PushMemory {
  node: string;
  sockets: number;
  idle: MemoryReading;
  loaded: MemoryReading;
  /** (loaded − idle) ÷ sockets, RSS after GC and as it is (KB). */
  kbPerSocket: number | null;
  kbPerSocketNoGc: number | null;
  heapKbPerSocket: number | null;
}

export interface PushLatency extends LatencySummary {
  rate: number;
  seconds: number;
  publishErrors: number;
  firstPublishError?: string;
  delivered: number;
  otherFrames: number;
  closedEarly: number;
  cpuMillis: number;
  cpuMicrosPerMessage: number | null;
  /** The nodes' CPU per publish with no socket open (µs), and per message above that rate. */
  baselineCpuMicrosPerPublish: number | null;
  aboveBaselineCpuMicrosPerMessage: number | null;
  /** The nodes' CPU (ms a second) holding the sockets idle, over one ping interval. */
  upkeepCpuMillisPerSecond: number | null;
  /** Above the no-socket rate and the idle sockets' upkeep, per message: the delivery itself. */
  deliveryCpuMicrosPerMessage: number | null;
  /** The publish requests' own response times (sent → 201), with the sockets and without. */
  publishResponse: { p50: number; p99: number };
  baselinePublishResponse: { p50: number; p99: number } | null;
  target: number;
}

export interface PushFigure {
  config: string;
  sockets: number;
  users: number;
  clientProcesses: number;
  authenticated: number;
  failed: number;
  firstError?: string;
  connectSeconds: number;
  memory: PushMemory[];
  latency?: PushLatency;
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;

/** The printed table. */
export function pushTable(figures: PushFigure[]): string {
  const lines = ["push: memory is RSS after a full GC, with the sockets − idle before them"];
  for (const f of figures) {
    lines.push(`  ${f.config}: ${f.sockets} sockets over ${f.users} users from ${f.clientProcesses} client processes`);
    for (const m of f.memory) {
      const met = m.kbPerSocket !== null && m.kbPerSocket <= TARGET_KB_PER_SOCKET;
      lines.push(
        `  ${f.config}, ${m.node}: ${m.sockets} sockets: ${m.kbPerSocket?.toFixed(1)} KB/socket after GC ` +
          `(${(m.idle.gcRssKb / 1024).toFixed(1)} → ${(m.loaded.gcRssKb / 1024).toFixed(1)} MB; heap ${m.heapKbPerSocket?.toFixed(1)} KB/socket; ` +
          `without GC ${m.kbPerSocketNoGc?.toFixed(1)} KB/socket) — target ≤ ${TARGET_KB_PER_SOCKET} KB ${met ? "✓" : "✗"}`,
      );
    }
    lines.push(
      `  ${f.config}: ${f.authenticated} authenticated in ${f.connectSeconds.toFixed(1)} s${f.failed ? `, ${f.failed} failed (${f.firstError})` : ""}`,
    );
    const l = f.latency;
    if (!l) continue;
    const met = l.missing === 0 && l.fromAck.p99 <= l.target;
    lines.push(
      `  ${f.config}: ${l.publishes} publishes at ${l.rate}/s (${l.publishErrors} refused), ${l.delivered} notify_activity delivered, ${l.missing} of ${l.expected} missing; ` +
        `ack → frame p50 ${ms(l.fromAck.p50)}, p99 ${ms(l.fromAck.p99)}, max ${ms(l.fromAck.max)} ` +
        `(request sent → frame p50 ${ms(l.fromSend.p50)}, p99 ${ms(l.fromSend.p99)}; ${l.beforeAck} frames before their ack; ` +
        `${l.withinDebounce} publishes within ${DEBOUNCE_MS} ms of the user's previous); ` +
        `server CPU ${l.cpuMicrosPerMessage?.toFixed(0)} µs per message (with no socket open ${l.baselineCpuMicrosPerPublish?.toFixed(0) ?? "–"} µs ` +
        `per publish; ${l.aboveBaselineCpuMicrosPerMessage?.toFixed(0) ?? "–"} µs per message above that, of which the idle sockets' upkeep ` +
        `${l.upkeepCpuMillisPerSecond?.toFixed(1) ?? "–"} ms/s; delivery ${l.deliveryCpuMicrosPerMessage?.toFixed(0) ?? "–"} µs per message); ` +
        `publish response p50 ${ms(l.publishResponse.p50)}, p99 ${ms(l.publishResponse.p99)}` +
        (l.baselinePublishResponse
          ? ` (no socket open: ${ms(l.baselinePublishResponse.p50)}, ${ms(l.baselinePublishResponse.p99)})`
          : "") +
        ` — target p99 ≤ ${l.target} ms ${met ? "✓" : "✗"}`,
    );
  }
  return lines.join("\n");
}
