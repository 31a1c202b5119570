import assert from "node:assert/strict";
import type { AuditKind } from "../../src/audit/domain/kinds.js";
import type { NewAuditEvent } from "../../src/audit/ports.js";
import type { Contract } from "./harness.js";

function event(overrides: Partial<NewAuditEvent>): NewAuditEvent {
  return {
    at: 1000,
    kind: "sign_in.succeeded",
    actor: "occ",
    uid: null,
    subjectType: null,
    subject: null,
    address: null,
    userAgent: null,
    requestId: null,
    detail: null,
    ...overrides,
  };
}

/** audit/ports.ts AuditStore, case by case. */
export const auditStoreContract: Contract = {
  "a batch is appended in order and read back newest first, field for field": async (s) => {
    const uid = s.unique("audited");
    const first = event({ uid, actor: uid, at: 10, subjectType: "user", subject: uid, address: "192.0.2.1", userAgent: "UA" });
    const second = event({ uid, at: 11, requestId: "req-1", detail: { factor: "password", fields: ["email"] } });
    await s.audit.insert([first, second]);
    const read = await s.audit.query({ uid, limit: 10 });
    assert.deepEqual(
      read.map(({ id: _, ...rest }) => rest),
      [second, first],
    );
    assert.ok((read[0]?.id ?? 0) > (read[1]?.id ?? 0), "ids ascend in the batch's order");
    await s.audit.insert([]);
  },

  "uid matches the user concerned or the actor; concerning only the user concerned": async (s) => {
    const uid = s.unique("who");
    await s.audit.insert([
      event({ uid, actor: "occ", subject: "concerned" }),
      event({ uid: null, actor: uid, subject: "acted" }),
      event({ uid: s.unique("else"), actor: "occ", subject: "other" }),
    ]);
    assert.deepEqual(
      (await s.audit.query({ uid, limit: 10 })).map((e) => e.subject),
      ["acted", "concerned"],
    );
    assert.deepEqual(
      (await s.audit.query({ concerning: uid, limit: 10 })).map((e) => e.subject),
      ["concerned"],
    );
  },

  "kind, since (inclusive), until (exclusive), before (an id) and limit narrow the page": async (s) => {
    const uid = s.unique("range");
    const kinds: AuditKind[] = ["sign_in.failed", "sign_in.succeeded", "sign_in.failed", "sign_in.failed"];
    await s.audit.insert(kinds.map((kind, i) => event({ uid, kind, at: 100 + i, subject: String(100 + i) })));
    const subjects = async (q: Omit<Parameters<typeof s.audit.query>[0], "uid">) =>
      (await s.audit.query({ uid, ...q })).map((e) => e.subject);
    assert.deepEqual(await subjects({ kind: "sign_in.failed", limit: 10 }), ["103", "102", "100"]);
    assert.deepEqual(await subjects({ since: 101, until: 103, limit: 10 }), ["102", "101"]);
    assert.deepEqual(await subjects({ limit: 2 }), ["103", "102"]);
    const all = await s.audit.query({ uid, limit: 10 });
    assert.deepEqual(await subjects({ before: all[1]?.id, limit: 10 }), ["101", "100"]);
  },

  "deleteOlderThan deletes the events before the time and counts them": async (s) => {
    const uid = s.unique("old");
    // No other case writes events this early, so the count is exact.
    await s.audit.insert([event({ uid, at: 1, subject: "a" }), event({ uid, at: 2, subject: "b" }), event({ uid, at: 3 })]);
    assert.equal(await s.audit.deleteOlderThan(3), 2);
    assert.deepEqual(
      (await s.audit.query({ uid, limit: 10 })).map((e) => e.at),
      [3],
    );
  },
};
