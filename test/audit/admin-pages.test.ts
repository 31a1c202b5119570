import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runInAuditContext } from "../../src/audit/context.js";
import { createOAuthTestApp, loggedIn, PASSWORD } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import type { FormClient } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

const SECURITY = "/index.php/settings/admin/security";
const EXPORT = "/index.php/settings/admin/security/audit.jsonl";

/** The ids of the audit table's rows on a page, in order (newest first). */
function listedKinds(page: string): string[] {
  const table = /<table class="responsive" id="audit-list">([\s\S]*?)<\/table>/.exec(page)?.[1] ?? "";
  return [...table.matchAll(/<tr data-kind="([^"]+)">/g)].map((m) => m[1] as string);
}

function olderLink(page: string): string | undefined {
  return /<a id="audit-older" href="([^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, "&");
}

const dayOf = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().slice(0, 10);

describe("audit log pages: the administrators' section, its filters, paging and export, and a user's own events", () => {
  let t: TestApp;
  let admin: FormClient;
  let alice: FormClient;
  /** When the seeded events began and the second day of them began. */
  let start: number;
  let secondDay: number;

  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "root", password: "root password!", isAdmin: true }));
    accepted(await t.services.users.create({ uid: "bob", password: PASSWORD }));
    // 60 sign-ins of alice and bob in turn on day one, an hour apart from midnight; then on day
    // two, root disables bob (an event of bob's that alice must not see).
    start = Math.ceil(t.clock.nowSeconds() / 86_400) * 86_400;
    t.clock.advance(start - t.clock.nowSeconds());
    const context = { actor: () => undefined, address: "192.0.2.5", userAgent: "Seeder", requestId: "seed" };
    for (let i = 0; i < 60; i++) {
      const uid = i % 2 === 0 ? "alice" : "bob";
      runInAuditContext(context, () =>
        t.services.audit.record(i % 3 === 0 ? "sign_in.failed" : "sign_in.succeeded", { uid, actor: uid, detail: { n: i } }),
      );
      t.clock.advance(60);
    }
    secondDay = start + 86_400;
    t.clock.advance(secondDay - t.clock.nowSeconds() + 3600);
    runInAuditContext({ actor: () => "root" }, () =>
      t.services.audit.record("user.disabled", { uid: "bob", subject: { type: "user", id: "bob" } }),
    );
    await t.services.audit.flush();
    admin = await loggedIn(t, "root", "root password!");
    alice = await loggedIn(t, "alice");
  });
  after(async () => {
    await t.close();
  });

  it("lists the newest events first, fifty a page, and the older link pages on with no event twice or left out", async () => {
    const first = await admin.get(SECURITY);
    assert.equal(first.statusCode, 200);
    const firstKinds = listedKinds(first.body);
    assert.equal(firstKinds.length, 50);
    // The newest: root's sign-in (loggedIn), alice's sign-in, then the day-two disable.
    assert.deepEqual(firstKinds.slice(0, 3), ["sign_in.succeeded", "sign_in.succeeded", "user.disabled"]);
    const next = olderLink(first.body);
    assert.ok(next, "an older link");
    assert.match(next, /before=\d+/);
    const second = await admin.get(next);
    const secondKinds = listedKinds(second.body);
    const all = await t.services.audit.query({ limit: 1000 });
    assert.equal(firstKinds.length + secondKinds.length, all.length);
    assert.equal(olderLink(second.body), undefined, "the last page has no older link");
  });

  it("filters by user (concerned or acting), kind and time range, and the filters stay in the older link", async () => {
    const bobs = await admin.get(`${SECURITY}?user=bob`);
    const events = await t.services.audit.query({ uid: "bob", limit: 1000 });
    assert.equal(listedKinds(bobs.body).length, events.length);
    assert.ok(events.every((e) => e.uid === "bob" || e.actor === "bob"));
    assert.match(bobs.body, /name="user" type="text" maxlength="64" value="bob"/);

    const failed = await admin.get(`${SECURITY}?kind=sign_in.failed`);
    assert.deepEqual(new Set(listedKinds(failed.body)), new Set(["sign_in.failed"]));
    assert.equal(listedKinds(failed.body).length, 20);
    assert.match(failed.body, /<option value="sign_in.failed" selected>/);

    const dayTwo = await admin.get(`${SECURITY}?since=${dayOf(secondDay)}&until=${dayOf(secondDay)}&user=bob`);
    assert.deepEqual(listedKinds(dayTwo.body), ["user.disabled"]);
    const dayOne = await admin.get(`${SECURITY}?until=${dayOf(start)}`);
    assert.equal(listedKinds(dayOne.body).length, 50);
    const older = olderLink(dayOne.body);
    assert.ok(older, "an older link");
    assert.ok(older.includes(`until=${dayOf(start)}`), older);
    // Day one and before: the sixty sign-ins and the accounts and client the test app made.
    const throughDayOne = await t.services.audit.query({ until: secondDay, limit: 1000 });
    assert.equal(throughDayOne.length, 64);
    assert.equal(listedKinds((await admin.get(older)).body).length, 14);
  });

  it("says which filter is wrong instead of a list", async () => {
    for (const query of ["kind=no.such.kind", "since=yesterday", "before=abc"]) {
      const page = await admin.get(`${SECURITY}?${query}`);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /id="audit-error" role="alert"/, query);
      assert.doesNotMatch(page.body, /id="audit-list"/, query);
    }
  });

  it("exports the filtered events as JSON lines, an attachment streamed in batches", async () => {
    // More events than one batch of the stream (500).
    for (let i = 0; i < 700; i++) t.services.audit.record("setting.changed", { subject: { type: "setting", id: `s${i}` } });
    await t.services.audit.flush();
    const all = await admin.get(EXPORT);
    assert.equal(all.statusCode, 200);
    assert.match(String(all.headers["content-type"]), /^application\/jsonl/);
    assert.equal(all.headers["content-disposition"], 'attachment; filename="keystream-audit.jsonl"');
    const lines = all.body
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    const stored = await t.services.audit.query({ limit: 1000 });
    assert.equal(lines.length, stored.length);
    assert.deepEqual(
      lines.map((line) => line.id),
      stored.map((e) => e.id),
    );
    assert.deepEqual(Object.keys(lines[0]), [
      "id",
      "time",
      "at",
      "kind",
      "actor",
      "user",
      "subject_type",
      "subject",
      "address",
      "user_agent",
      "request_id",
      "detail",
    ]);

    const bobs = (await admin.get(`${EXPORT}?user=bob&kind=sign_in.failed`)).body
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    assert.equal(bobs.length, 10);
    assert.ok(
      bobs.every((e) => e.user === "bob" && e.kind === "sign_in.failed" && e.address === "192.0.2.5" && e.request_id === "seed"),
    );

    const page = await admin.get(`${SECURITY}?user=bob`);
    assert.match(
      page.body,
      /<a id="audit-export" href="\/index.php\/settings\/admin\/security\/audit.jsonl\?user=bob" download>/,
    );
    const refused = await admin.get(`${EXPORT}?kind=nope`);
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /unknown event kind "nope"/);
  });

  it("is for administrators only", async () => {
    assert.equal((await alice.get(EXPORT)).statusCode, 403);
    assert.equal((await alice.get(SECURITY)).statusCode, 403);
  });

  it("shows a user their own events only on the personal page", async () => {
    const page = await alice.get("/index.php/settings/personal");
    assert.equal(page.statusCode, 200);
    const table = /<table class="responsive" id="own-audit-list">([\s\S]*?)<\/table>/.exec(page.body)?.[1] ?? "";
    const rows = table.match(/<tr>/g) ?? [];
    // Twenty rows: her latest sign-in and nineteen of the seeded ones; none of bob's.
    assert.equal(rows.length - 1, 20);
    assert.doesNotMatch(table, /bob/);
    const own = await t.services.audit.query({ concerning: "alice", limit: 20 });
    assert.ok(own.every((e) => e.uid === "alice"));
    assert.equal(own.length, 20);
  });
});
