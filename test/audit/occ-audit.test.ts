import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runInAuditContext } from "../../src/audit/context.js";
import { runOccInProcess } from "../support/occ.js";
import { createTestServices, type TestServices } from "../support/services.js";

describe("./occ security:audit: the audit log with the page's filters", () => {
  let t: TestServices;
  const occ = (...argv: string[]) => runOccInProcess(argv, t.testStorage);

  before(async () => {
    t = await createTestServices();
    const context = { actor: () => "root", address: "192.0.2.9", userAgent: "Browser", requestId: "req-1" };
    runInAuditContext(context, () => {
      t.services.audit.record("user.disabled", { uid: "carol", subject: { type: "user", id: "carol" } });
      t.clock.advance(86_400);
      t.services.audit.record("sign_in.succeeded", { uid: "dave", actor: "dave", detail: { factor: "password" } });
      t.services.audit.record("sign_in.failed", { uid: "carol", detail: { factor: "basic", reason: "wrong_credentials" } });
    });
    await t.services.audit.flush();
  });
  after(async () => {
    await t.close();
  });

  it("prints the events newest first as JSON, filtered by user, kind and time", async () => {
    const all = await occ("security:audit", "--output=json");
    assert.equal(all.code, 0, all.err);
    const events = JSON.parse(all.out);
    assert.deepEqual(
      events.map((e: { kind: string }) => e.kind),
      ["sign_in.failed", "sign_in.succeeded", "user.disabled"],
    );
    assert.deepEqual(events[2], {
      id: events[2].id,
      time: new Date(events[2].at * 1000).toISOString().replace(".000Z", "Z"),
      at: events[2].at,
      kind: "user.disabled",
      actor: "root",
      user: "carol",
      subject_type: "user",
      subject: "carol",
      address: "192.0.2.9",
      user_agent: "Browser",
      request_id: "req-1",
      detail: null,
    });
    const carol = JSON.parse((await occ("security:audit", "--user=carol", "--output=json")).out);
    assert.deepEqual(
      carol.map((e: { kind: string }) => e.kind),
      ["sign_in.failed", "user.disabled"],
    );
    const kind = JSON.parse((await occ("security:audit", "--kind=sign_in.succeeded", "--output=json")).out);
    assert.deepEqual(
      kind.map((e: { user: string }) => e.user),
      ["dave"],
    );
    const since = JSON.parse((await occ("security:audit", `--since=${events[1].at}`, "--output=json")).out);
    assert.equal(since.length, 2);
    const until = JSON.parse((await occ("security:audit", `--until=${events[1].at}`, "--output=json")).out);
    assert.deepEqual(
      until.map((e: { kind: string }) => e.kind),
      ["user.disabled"],
    );
    const limited = JSON.parse((await occ("security:audit", "--limit=1", "--output=json")).out);
    assert.equal(limited.length, 1);
    const older = JSON.parse((await occ("security:audit", `--before=${limited[0].id}`, "--output=json")).out);
    assert.equal(older.length, 2);
  });

  it("prints one line per event in plain output", async () => {
    const plain = await occ("security:audit", "--user=carol");
    assert.equal(plain.code, 0);
    const lines = plain.out.trimEnd().split("\n");
    assert.equal(lines.length, 2);
    assert.match(
      lines[0] as string,
      /^\d+ \S+Z sign_in\.failed by root user carol from 192\.0\.2\.9 \{"factor":"basic","reason":"wrong_credentials"\}$/,
    );
    assert.match(lines[1] as string, /^\d+ \S+Z user\.disabled by root user carol user:carol from 192\.0\.2\.9$/);
  });

  it("refuses a wrong filter with exit 1 and says which", async () => {
    for (const [argv, message] of [
      [["--kind=nope"], /unknown event kind "nope"/],
      [["--since=last week"], /since must be a date/],
      [["--limit=0"], /limit must be between 1 and 10000/],
    ] as const) {
      const result = await occ("security:audit", ...argv);
      assert.equal(result.code, 1, argv.join(" "));
      assert.match(result.err, message);
    }
  });
});
