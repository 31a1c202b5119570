import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodePushEvent, encodePushEvent, eventsForActivities, type PushEvent } from "../../src/push/domain/events.js";
import { MAX_CONNECTIONS_PER_USER, PushHub, type PushSocket } from "../../src/push/hub.js";
import type { PushChannel } from "../../src/push/ports.js";

/** A socket that records what the hub does to it. */
class RecordingSocket implements PushSocket {
  sent: string[] = [];
  pings = 0;
  closedWith: number | undefined;
  terminated = false;
  send(text: string): void {
    this.sent.push(text);
  }
  ping(): void {
    this.pings++;
  }
  close(code: number): void {
    this.closedWith = code;
  }
  terminate(): void {
    this.terminated = true;
  }
}

/** The hub's deliveries are exercised directly; the channel is the storage tests' concern. */
const noChannel: PushChannel = {
  publish: async () => undefined,
  subscribe: async () => undefined,
  close: async () => undefined,
};

describe("push hub rules", () => {
  it("takes at most 64 connections per user", () => {
    const hub = new PushHub(noChannel);
    for (let i = 0; i < MAX_CONNECTIONS_PER_USER; i++) assert.equal(hub.add("alice", new RecordingSocket()), true);
    assert.equal(hub.add("alice", new RecordingSocket()), false);
    assert.equal(hub.add("bob", new RecordingSocket()), true, "the limit is per user");
  });

  it("pings every connection, and drops one that did not answer the last ping", () => {
    const hub = new PushHub(noChannel);
    const answering = new RecordingSocket();
    const silent = new RecordingSocket();
    hub.add("alice", answering);
    hub.add("alice", silent);
    hub.heartbeat();
    assert.equal(answering.pings, 1);
    assert.equal(silent.pings, 1);
    hub.pong(answering);
    hub.heartbeat();
    assert.equal(answering.pings, 2);
    assert.equal(answering.terminated, false);
    assert.equal(silent.terminated, true);
    assert.equal(hub.size, 1);
  });

  it("sends the first message of a kind at once and merges the ones within the debounce window into one", (t) => {
    // The window's end is a timer: it fires when the test advances the clock.
    t.mock.timers.enable({ apis: ["setTimeout"] });
    let now = 1_000_000;
    const hub = new PushHub(noChannel, { now: () => now, debounceMs: 30 });
    const socket = new RecordingSocket();
    hub.add("alice", socket);
    hub.received(socket, "listen notify_file_id");
    hub.deliver({ kind: "activity", uid: "alice", fileIds: [1] });
    assert.deepEqual(socket.sent, ["notify_activity", "notify_file_id [1]"]);
    now += 10;
    hub.deliver({ kind: "activity", uid: "alice", fileIds: [2] });
    hub.deliver({ kind: "activity", uid: "alice", fileIds: [3] });
    hub.deliver({ kind: "notification", uid: "alice" });
    assert.deepEqual(socket.sent.slice(2), ["notify_notification"], "another kind is not held back");
    now += 30;
    t.mock.timers.tick(30);
    assert.deepEqual(socket.sent.slice(3).sort(), ["notify_activity", "notify_file_id [2,3]"]);
  });

  it("closes the user's sockets on an end event, and every socket with 1001 when it closes", async () => {
    const hub = new PushHub(noChannel);
    const alice = new RecordingSocket();
    const bob = new RecordingSocket();
    hub.add("alice", alice);
    hub.add("bob", bob);
    hub.deliver({ kind: "end", uid: "alice" });
    assert.equal(alice.closedWith, 1008);
    assert.equal(bob.closedWith, undefined);
    await hub.close();
    assert.equal(bob.closedWith, 1001);
  });

  it("sends `notify_activity`, `notify_file` and `notify_notification` to every socket to catch up after missed events", () => {
    const hub = new PushHub(noChannel);
    const socket = new RecordingSocket();
    hub.add("alice", socket);
    hub.catchUp();
    assert.deepEqual(socket.sent, ["notify_activity", "notify_file", "notify_notification"]);
  });
});

describe("push events", () => {
  it("are one per affected user, with the ids of files (object_type files)", () => {
    const events = eventsForActivities([
      { affecteduser: "alice", object_type: "files", object_id: 5 },
      { affecteduser: "alice", object_type: "files", object_id: 5 },
      { affecteduser: "alice", object_type: "files", object_id: 6 },
      { affecteduser: "bob", object_type: "", object_id: 0 },
    ]);
    assert.deepEqual(events, [
      { kind: "activity", uid: "alice", fileIds: [5, 6] },
      { kind: "activity", uid: "bob" },
    ]);
  });

  it("travel as short JSON and come back the same; anything else is ignored", () => {
    const events: PushEvent[] = [
      { kind: "activity", uid: "alice", fileIds: [1, 2] },
      { kind: "activity", uid: "bob" },
      { kind: "notification", uid: "carol" },
      { kind: "end", uid: "dave" },
    ];
    for (const event of events) assert.deepEqual(decodePushEvent(encodePushEvent(event)), event);
    for (const payload of ["", "null", "{}", '{"k":"a"}', '{"k":"x","u":"a"}', '{"k":"a","u":"a","f":["1"]}']) {
      assert.equal(decodePushEvent(payload), undefined, payload);
    }
  });
});
