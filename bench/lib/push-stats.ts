/**
 * The push latency scenario's arithmetic (bench/scenarios/push.ts): which `notify_activity` frame
 * answered which publish, and the figures. Pure, so that test/bench/push-stats.test.ts checks it.
 */
import { percentile } from "./load.js";

/** One publish of the load: for whom, when its request left and when its 201 came back (ms, wall clock). */
export interface PublishRecord {
  uid: string;
  sentAt: number;
  ackedAt: number;
}

/** One client socket's user and the times (ms, wall clock, ascending) its `notify_activity` frames arrived. */
export interface SocketFrames {
  uid: string;
  frames: number[];
}

export interface LatencySummary {
  /** Publishes acknowledged (201). */
  publishes: number;
  /** (publish, socket of its user) pairs that should have heard of it. */
  expected: number;
  /** Of those, the pairs with no frame after the publish was sent. */
  missing: number;
  /** ms from the acknowledgement to the frame (a frame before the acknowledgement counts as 0). */
  fromAck: { p50: number; p99: number; max: number };
  /** ms from sending the publish request to the frame. */
  fromSend: { p50: number; p99: number; max: number };
  /** Pairs whose frame arrived before the publish's acknowledgement. */
  beforeAck: number;
  /** Publishes for a user that had another publish less than `debounceMs` before (merged or held by the debounce). */
  withinDebounce: number;
}

/** The first index of `sorted` whose value is ≥ `at` (sorted.length when none). */
function firstAtOrAfter(sorted: readonly number[], at: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < at) low = middle + 1;
    else high = middle;
  }
  return low;
}

function spread(values: number[]): { p50: number; p99: number; max: number } {
  return { p50: percentile(values, 50), p99: percentile(values, 99), max: values.reduce((a, b) => Math.max(a, b), 0) };
}

/**
 * For every publish and every socket of its user: the first `notify_activity` on that socket
 * received at or after the publish request was sent is the one that told of it (the hub's
 * debounce merges publishes of one user within its window into one frame, which then answers each
 * of them). A frame of an earlier publish of the same user that arrives while this publish is
 * being written would be taken for this one's: rare at the load's pace, and `withinDebounce`
 * counts the publishes where it can happen at all.
 */
export function summarizeLatency(
  publishes: readonly PublishRecord[],
  sockets: readonly SocketFrames[],
  debounceMs: number,
): LatencySummary {
  const socketsOf = new Map<string, SocketFrames[]>();
  for (const socket of sockets) {
    const list = socketsOf.get(socket.uid) ?? [];
    list.push(socket);
    socketsOf.set(socket.uid, list);
  }
  const fromAck: number[] = [];
  const fromSend: number[] = [];
  let expected = 0;
  let missing = 0;
  let beforeAck = 0;
  let withinDebounce = 0;
  const lastSentTo = new Map<string, number>();
  for (const publish of [...publishes].sort((a, b) => a.sentAt - b.sentAt)) {
    const previous = lastSentTo.get(publish.uid);
    if (previous !== undefined && publish.sentAt - previous < debounceMs) withinDebounce++;
    lastSentTo.set(publish.uid, publish.sentAt);
    for (const socket of socketsOf.get(publish.uid) ?? []) {
      expected++;
      const at = socket.frames[firstAtOrAfter(socket.frames, publish.sentAt)];
      if (at === undefined) {
        missing++;
        continue;
      }
      if (at < publish.ackedAt) beforeAck++;
      fromAck.push(Math.max(0, at - publish.ackedAt));
      fromSend.push(at - publish.sentAt);
    }
  }
  return {
    publishes: publishes.length,
    expected,
    missing,
    fromAck: spread(fromAck),
    fromSend: spread(fromSend),
    beforeAck,
    withinDebounce,
  };
}

/** Server CPU (µs) per delivered message: the servers' CPU time over the load ÷ the frames the clients received. */
export function cpuMicrosPerMessage(cpuMillis: number, delivered: number): number | null {
  return delivered > 0 ? (cpuMillis * 1000) / delivered : null;
}

/** Memory per socket (KB) from two RSS readings (KB) and the sockets opened between them. */
export function kilobytesPerSocket(idleKb: number, loadedKb: number, sockets: number): number | null {
  return sockets > 0 ? (loadedKb - idleKb) / sockets : null;
}
