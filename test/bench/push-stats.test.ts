import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type PushFigure, pushTable } from "../../bench/lib/push-report.js";
import { cpuMicrosPerMessage, kilobytesPerSocket, summarizeLatency } from "../../bench/lib/push-stats.js";

describe("push bench arithmetic (bench/lib/push-stats.ts)", () => {
  it("measures each publish to the first frame on each of its user's sockets after the publish was sent", () => {
    const summary = summarizeLatency(
      [
        { uid: "a", sentAt: 1000, ackedAt: 1010 },
        { uid: "b", sentAt: 1005, ackedAt: 1012 },
      ],
      [
        { uid: "a", frames: [900, 1030] },
        { uid: "a", frames: [1050] },
        { uid: "b", frames: [1008] },
      ],
      1000,
    );
    assert.equal(summary.publishes, 2);
    assert.equal(summary.expected, 3);
    assert.equal(summary.missing, 0);
    // From the acknowledgement: 20 and 40 ms on a's sockets; b's frame came before its 201: 0.
    assert.equal(summary.beforeAck, 1);
    assert.equal(summary.fromAck.max, 40);
    assert.equal(summary.fromSend.max, 50);
    assert.equal(summary.fromAck.p50, 20);
  });

  it("counts a socket that never heard of a publish as missing, not as a latency", () => {
    const summary = summarizeLatency([{ uid: "a", sentAt: 2000, ackedAt: 2005 }], [{ uid: "a", frames: [1500] }], 1000);
    assert.equal(summary.expected, 1);
    assert.equal(summary.missing, 1);
    assert.ok(Number.isNaN(summary.fromAck.p50), "no latency sample");
  });

  it("lets one debounced frame answer every publish of its window, and counts publishes within the window", () => {
    const summary = summarizeLatency(
      [
        { uid: "a", sentAt: 0, ackedAt: 5 },
        { uid: "a", sentAt: 200, ackedAt: 205 },
        { uid: "a", sentAt: 600, ackedAt: 605 },
      ],
      [{ uid: "a", frames: [3, 1003] }],
      1000,
    );
    assert.equal(summary.missing, 0);
    assert.equal(summary.withinDebounce, 2);
    assert.equal(summary.fromAck.max, 798);
  });

  it("divides CPU by delivered messages and memory by sockets, and says nothing for none", () => {
    assert.equal(cpuMicrosPerMessage(30, 1000), 30);
    assert.equal(cpuMicrosPerMessage(30, 0), null);
    assert.equal(kilobytesPerSocket(80_000, 230_000, 10_000), 15);
    assert.equal(kilobytesPerSocket(80_000, 80_000, 0), null);
  });
});

describe("push bench report (bench/lib/push-report.ts)", () => {
  const reading = (kb: number) => ({ rssKb: kb, gcRssKb: kb, gcHeapKb: kb / 4 });
  const figure = (kbPerSocket: number, p99: number, missing: number): PushFigure => ({
    config: "SQLite, one node",
    sockets: 10,
    users: 5,
    clientProcesses: 1,
    authenticated: 10,
    failed: 0,
    connectSeconds: 1,
    memory: [
      {
        node: "node",
        sockets: 10,
        idle: reading(1000),
        loaded: reading(1000 + kbPerSocket * 10),
        kbPerSocket,
        kbPerSocketNoGc: kbPerSocket,
        heapKbPerSocket: kbPerSocket / 4,
      },
    ],
    latency: {
      publishes: 5,
      expected: 10,
      missing,
      fromAck: { p50: 1, p99, max: p99 },
      fromSend: { p50: 2, p99, max: p99 },
      beforeAck: 0,
      withinDebounce: 0,
      rate: 100,
      seconds: 1,
      publishErrors: 0,
      delivered: 10 - missing,
      otherFrames: 0,
      closedEarly: 0,
      cpuMillis: 1,
      cpuMicrosPerMessage: 100,
      baselineCpuMicrosPerPublish: 150,
      aboveBaselineCpuMicrosPerMessage: 30,
      upkeepCpuMillisPerSecond: 1,
      deliveryCpuMicrosPerMessage: 25,
      publishResponse: { p50: 2, p99: 5 },
      baselinePublishResponse: { p50: 2, p99: 4 },
      target: 1000,
    },
  });

  it("marks the memory and latency targets met or missed, a missing delivery being a miss", () => {
    const met = pushTable([figure(15, 900, 0)]).split("\n");
    assert.ok(met.some((l) => l.includes("15.0 KB/socket") && l.endsWith("≤ 20 KB ✓")));
    assert.ok(met.some((l) => l.includes("p99 900 ms") && l.endsWith("≤ 1000 ms ✓")));
    const missed = pushTable([figure(25, 1100, 0)]).split("\n");
    assert.ok(missed.some((l) => l.endsWith("≤ 20 KB ✗")));
    assert.ok(missed.some((l) => l.endsWith("≤ 1000 ms ✗")));
    assert.ok(
      pushTable([figure(15, 900, 1)])
        .split("\n")
        .some((l) => l.includes("1 of 10 missing") && l.endsWith("✗")),
    );
  });
});
