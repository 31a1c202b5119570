import assert from "node:assert/strict";
import { describe, it } from "node:test";
import pino from "pino";
import { runInAuditContext } from "../../../src/audit/context.js";
import type { NewAuditEvent } from "../../../src/audit/ports.js";
import { AuditLog } from "../../../src/audit/recorder.js";
import { ManualClock } from "../../../src/clock.js";
import { MemoryAuditStore } from "../../support/memory/audit.js";

function setup(store = new MemoryAuditStore()) {
  const clock = new ManualClock(1_800_000_000);
  const warnings: string[] = [];
  const log = pino({ level: "warn" }, { write: (line: string) => warnings.push(JSON.parse(line).event) });
  return { store, clock, warnings, audit: new AuditLog(store, clock, log) };
}

describe("audit: the rules of the audit log, on a memory store", () => {
  it("an event is queued, not written, until a flush; a query flushes first", async () => {
    const { store, audit } = setup();
    audit.record("group.created", { subject: { type: "group", id: "staff" } });
    assert.deepEqual(await store.query({ limit: 10 }), [], "queued only");
    const [event] = await audit.query({ limit: 10 });
    assert.equal(event?.kind, "group.created");
    assert.equal(event?.subject, "staff");
  });

  it("without a context the actor is system; a caller's actor wins; long fields are cut to their columns", async () => {
    const { audit } = setup();
    audit.record("user.created", { uid: "u".repeat(80) });
    audit.record("sign_in.succeeded", { actor: "alice", uid: "alice" });
    const [signIn, created] = await audit.query({ limit: 10 });
    assert.equal(created?.actor, "system");
    assert.equal(created?.uid, "u".repeat(64));
    assert.equal(signIn?.actor, "alice");
  });

  it("a failed write is logged and its batch dropped; recording never throws", async () => {
    class FailingStore extends MemoryAuditStore {
      override async insert(_events: readonly NewAuditEvent[]): Promise<void> {
        throw new Error("database unavailable");
      }
    }
    const { audit, warnings } = setup(new FailingStore());
    audit.record("group.deleted");
    await audit.flush();
    assert.deepEqual(warnings, ["audit_write_failed"]);
    assert.deepEqual(await audit.query({ limit: 10 }), [], "the batch was not kept for later");
  });

  it("retention deletes the events older than the days kept, counting them", async () => {
    const { audit, clock } = setup();
    audit.record("group.created");
    await audit.flush();
    clock.advance(3 * 86_400);
    audit.record("group.deleted");
    await audit.flush();
    assert.equal(await audit.purgeOlderThan(2), 1);
    assert.deepEqual(
      (await audit.query({ limit: 10 })).map((e) => e.kind),
      ["group.deleted"],
    );
  });

  it("a trail with its own context records that context's actor and address", async () => {
    const { audit } = setup();
    const context = { actor: () => "bob", address: "192.0.2.7", userAgent: "UA", requestId: "req-9" };
    audit.withContext(context).record("app_password.created");
    const [event] = await audit.query({ limit: 1 });
    assert.deepEqual([event?.actor, event?.address, event?.userAgent, event?.requestId], ["bob", "192.0.2.7", "UA", "req-9"]);
  });

  it("an event recorded while a request's context runs takes its actor as known at that moment", async () => {
    const { audit } = setup();
    let principal: string | undefined;
    runInAuditContext({ actor: () => principal, address: "198.51.100.1" }, () => {
      audit.record("sign_in.failed");
      principal = "carol";
      audit.record("app_password.created");
    });
    const [later, earlier] = await audit.query({ limit: 2 });
    assert.deepEqual([earlier?.actor, earlier?.address], ["system", "198.51.100.1"]);
    assert.equal(later?.actor, "carol");
  });
});
