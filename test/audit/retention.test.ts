import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runOccInProcess } from "../support/occ.js";
import { createTestServices, type TestServices } from "../support/services.js";

describe("audit retention: the daily job deletes events older than audit.retention_days", () => {
  let t: TestServices;

  before(async () => {
    t = await createTestServices();
  });
  after(async () => {
    await t.close();
  });

  it("deletes the older events and keeps the newer ones", async () => {
    t.services.audit.record("user.created", { uid: "old" });
    await t.services.audit.flush();
    t.clock.advance(10 * 86_400);
    t.services.audit.record("user.created", { uid: "newer" });
    await t.services.audit.flush();
    // Seven days kept: the first event is ten days old, the second is new.
    t.services.settings.set("audit.retention_days", 7);
    t.clock.advance(86_400);
    const ran = await t.services.jobs.runDueJobs();
    assert.ok(ran.includes("audit:retention"), ran.join(", "));
    const left = await t.services.audit.query({ kind: "user.created", limit: 10 });
    assert.deepEqual(
      left.map((e) => e.uid),
      ["newer"],
    );
  });

  it("keeps 180 days by default, and the setting takes whole days from 1", async () => {
    t.services.settings.delete("audit.retention_days");
    assert.equal(t.services.settings.get("audit.retention_days"), 180);
    const refused = await runOccInProcess(["config:system:set", "audit.retention_days", "--value=0"], t.testStorage);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /audit\.retention_days/);
  });
});
