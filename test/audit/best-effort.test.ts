import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import pino from "pino";
import { AuditLog } from "../../src/audit/recorder.js";
import { ManualClock } from "../../src/clock.js";
import { createOAuthTestApp, exchangeCode, issueCode, loggedIn, refresh } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";

describe("audit writes are best effort: a failing audit store never fails what caused the event", () => {
  let t: TestApp;

  before(async () => {
    t = await createOAuthTestApp();
    await t.services.audit.flush();
    // The store fails every write from now on: its table is gone.
    await sql`DROP TABLE audit_log`.execute(t.testStorage.storage.db);
  });
  after(async () => {
    await t.close();
  });

  it("signs in, authorizes, exchanges a code and refreshes as if the audit log were there", async () => {
    const browser = await loggedIn(t);
    assert.ok(browser);
    const code = await issueCode(t);
    const tokens = await exchangeCode(t, code);
    assert.equal(tokens.statusCode, 200, tokens.body);
    const refreshed = await refresh(t, tokens.json().refresh_token);
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    // The queued events' write fails, and says so in the log; flush itself does not throw.
    await t.services.audit.flush();
  });

  it("logs a failed write with its count and kinds, and keeps recording", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: "warn" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const failing = {
      insert: async () => {
        throw new Error("disk full");
      },
      query: async () => [],
      deleteOlderThan: async () => 0,
    };
    const audit = new AuditLog(failing, new ManualClock(), log);
    audit.record("sign_in.succeeded", { uid: "alice" });
    audit.record("sign_in.failed", { uid: "alice" });
    await audit.flush();
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.event, "audit_write_failed");
    assert.equal(lines[0]?.count, 2);
    assert.deepEqual(lines[0]?.kinds, ["sign_in.succeeded", "sign_in.failed"]);
    audit.record("user.created", { uid: "bob" });
    await audit.flush();
    assert.equal(lines.length, 2);
  });
});
