import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boundAfter, resolveSince } from "../../src/activity/domain/cursor.js";
import { isoDateTime, toStreamEntry } from "../../src/activity/domain/element.js";
import { validateBatch } from "../../src/activity/domain/event.js";
import { categoryOf, findFilter, listedFilters, streamDisabled } from "../../src/activity/domain/filters.js";
import { groupActivities, type StoredActivity } from "../../src/activity/domain/grouping.js";
import { clampLimit, cutPage, etagOf, isNotModified, nextPageQuery, parseListQuery } from "../../src/activity/domain/page.js";
import { preparedText, renderSubject, richText } from "../../src/activity/domain/prepared-text.js";
import { effectiveStreamSettings } from "../../src/activity/domain/stream-settings.js";

const context = { baseUrl: "https://cloud.example.com", displayName: (uid: string) => ({ bob: "Bob <B>" })[uid] };

describe("page: limit, probe, next link, ETag (research §3)", () => {
  it("defaults limit to 50 and clamps it to 1..200", () => {
    assert.equal(clampLimit(undefined), 50);
    assert.equal(clampLimit("abc"), 50);
    assert.equal(clampLimit("10"), 10);
    assert.equal(clampLimit("500"), 200);
    assert.equal(clampLimit("0"), 1);
    assert.equal(clampLimit("-4"), 1);
  });

  it("honours object_type and object_id only together (one alone is ignored)", () => {
    assert.deepEqual(
      [parseListQuery("all", { object_type: "files" }).objectType, parseListQuery("all", { object_id: "3" }).objectId],
      [undefined, undefined],
    );
    const both = parseListQuery("filter", { object_type: "files", object_id: "3" });
    assert.deepEqual([both.objectType, both.objectId], ["files", 3]);
  });

  it("accepts exactly asc or desc, anything else is desc", () => {
    assert.equal(parseListQuery("all", { sort: "asc" }).sort, "asc");
    assert.equal(parseListQuery("all", { sort: "ASC" }).sort, "desc");
  });

  it("consumes limit rows and uses the extra one only as the has-more probe", () => {
    const rows = [1, 2, 3].map((activity_id) => ({ activity_id }));
    assert.deepEqual(cutPage(rows, 2), { rows: rows.slice(0, 2), hasMore: true, lastGiven: 2 });
    assert.deepEqual(cutPage(rows, 3), { rows, hasMore: false, lastGiven: 3 });
    assert.deepEqual(cutPage([], 3), { rows: [], hasMore: false, lastGiven: undefined });
  });

  it("builds the next query in upstream's order: since, limit, sort, object, format", () => {
    const query = parseListQuery("all", { limit: "25", sort: "asc", object_type: "ob", object_id: "10", format: "json" });
    assert.equal(nextPageQuery(query, 23), "since=23&limit=25&sort=asc&object_type=ob&object_id=10&format=json");
  });

  it("computes the ETag as upstream does (MD5 of the JSON id list)", () => {
    assert.equal(etagOf([]), "d751713988987e9331980363e24189ce");
    assert.equal(etagOf([23]), "b37e127599eef3cfeceac50e34cd5037");
    assert.equal(etagOf([23, 42]), "f39a1f6e9647bf7ac763f3728830d64b");
  });

  it("is not modified when empty, or when If-None-Match holds the ETag (quoted or not)", () => {
    assert.equal(isNotModified(0, "x", undefined), true);
    assert.equal(isNotModified(2, "abc", undefined), false);
    assert.equal(isNotModified(2, "abc", "abc"), true);
    assert.equal(isNotModified(2, "abc", '"zzz", W/"abc"'), true);
    assert.equal(isNotModified(2, "abc", "abd"), false);
  });
});

describe("cursor: keyset bound on (timestamp, activity_id)", () => {
  it("bounds below the since row for desc and above it for asc", () => {
    assert.deepEqual(boundAfter({ timestamp: 5, activityId: 9 }, "desc"), { timestamp: 5, activityId: 9, comparison: "<" });
    assert.deepEqual(boundAfter({ timestamp: 5, activityId: 9 }, "asc"), { timestamp: 5, activityId: 9, comparison: ">" });
  });

  it("tells unknown, foreign and own since apart", () => {
    assert.deepEqual(resolveSince(undefined, undefined, "a", "desc"), { kind: "none" });
    assert.deepEqual(resolveSince(4, undefined, "a", "desc"), { kind: "unknown" });
    assert.deepEqual(resolveSince(4, { affecteduser: "b", timestamp: 1, activity_id: 4 }, "a", "desc"), { kind: "foreign" });
    assert.equal(resolveSince(4, { affecteduser: "a", timestamp: 1, activity_id: 4 }, "a", "desc").kind, "bound");
  });
});

describe("filters: one table", () => {
  it("lists filters by priority then id, without the object filter", () => {
    assert.deepEqual(
      listedFilters().map((f) => f.id),
      ["all", "self", "by", "files", "files_sharing", "security"],
    );
    assert.ok(findFilter("filter"));
    assert.equal(findFilter("nope"), undefined);
  });

  it("puts each row in at most one type filter, by app and type", () => {
    assert.equal(categoryOf("files", "file_changed"), "files");
    assert.equal(categoryOf("files_sharing", "shared"), "files_sharing");
    assert.equal(categoryOf("files_sharing", "file_changed"), "");
    assert.equal(categoryOf("oauth2", "security"), "security");
    assert.equal(categoryOf("myapp", "custom"), "");
  });

  it("disables a type filter whose types are all off, and every filter when all types are off", () => {
    const filesOff = effectiveStreamSettings(
      new Map([
        ["file_created", false],
        ["file_changed", false],
        ["file_deleted", false],
        ["file_restored", false],
      ]),
    );
    assert.equal(streamDisabled(findFilter("files")!, filesOff), true);
    assert.equal(streamDisabled(findFilter("all")!, filesOff), false);
    const allOff = effectiveStreamSettings(new Map(Object.keys(filesOff).map((k) => [k, false])));
    assert.equal(streamDisabled(findFilter("all")!, allOff), true);
  });
});

describe("prepared text: markup with escaped attributes and bodies (research §6.4)", () => {
  it('escapes a file name with <&"> and quotes in the body and the link attribute', () => {
    const segments = renderSubject("files", "changed_by", [
      { type: "file", value: `/dir/a<b>&"c'.txt`, id: 12 },
      { type: "user", value: "bob" },
    ]);
    const prepared = preparedText(segments, context);
    assert.equal(
      prepared,
      '<user display-name="Bob &lt;B&gt;">bob</user> changed <file link="https://cloud.example.com/index.php/apps/files/?dir=%2Fdir&amp;scrollto=a%3Cb%3E%26%22c%27.txt" id="12">dir/a&lt;b&gt;&amp;&quot;c&#039;.txt</file>',
    );
  });

  it("renders federated cloud ids, untyped parameters and an empty author", () => {
    const fed = preparedText(
      renderSubject("files", "changed_by", [
        { type: "file", value: "/x" },
        { type: "federated-cloud-id", value: "ann@remote.example" },
      ]),
      context,
    );
    assert.match(
      fed,
      /<federated-cloud-id display-name="ann@…" user="ann" server="remote\.example">ann@remote\.example<\/federated-cloud-id>/,
    );
    assert.match(fed, /<file link="[^"]+" id="">x<\/file>/, "unknown file id is an empty attribute");
    const anonymous = preparedText(
      renderSubject("files", "created_by", [
        { type: "file", value: "/x" },
        { type: "user", value: "" },
      ]),
      context,
    );
    assert.match(anonymous, /^<user display-name="remote user"><\/user> created/);
    const client = preparedText(
      renderSubject("oauth2", "client_authorized", [{ type: "parameter", value: "Desktop <x>" }]),
      context,
    );
    assert.equal(client, "You granted <parameter>Desktop &lt;x&gt;</parameter> access to your account");
  });

  it("uses an unknown subject as its own text with {0}-style parameters, escaped", () => {
    const segments = renderSubject("backup", "Backup {0} done & <ok>", [{ type: "parameter", value: "nightly" }]);
    assert.equal(preparedText(segments, context), "Backup <parameter>nightly</parameter> done &amp; &lt;ok&gt;");
    assert.deepEqual(richText(segments, context), [
      "Backup {param0} done & <ok>",
      { param0: { type: "highlight", id: "nightly", name: "nightly" } },
    ]);
  });

  it("builds today's rich subject with a file object of string values", () => {
    const [template, objects] = richText(
      renderSubject("files", "created_self", [{ type: "file", value: "/a/b.txt", id: 5 }]),
      context,
    );
    assert.equal(template, "You created {file}");
    assert.deepEqual(objects, {
      file: { type: "file", id: "5", name: "b.txt", path: "a/b.txt", link: "https://cloud.example.com/index.php/f/5" },
    });
  });

  it("formats datetime as ISO 8601 with a +00:00 offset", () => {
    assert.equal(isoDateTime(1_800_000_000), "2027-01-15T08:00:00+00:00");
  });
});

function row(id: number, overrides: Partial<StoredActivity> = {}): StoredActivity {
  return {
    activity_id: id,
    timestamp: 1000 - id,
    app: "files",
    type: "file_changed",
    user: "bob",
    affecteduser: "alice",
    subject: "changed_by",
    subjectparams: [
      { type: "file", value: `/f${id}.txt`, id },
      { type: "user", value: "bob" },
    ],
    message: "",
    messageparams: [],
    link: "",
    object_type: "files",
    object_id: id,
    object_name: `/f${id}.txt`,
    ...overrides,
  };
}

describe("grouping (research §5.4)", () => {
  it("collapses consecutive activities differing in one parameter into a collection with activity_ids", () => {
    const groups = groupActivities([row(3), row(2), row(1)]);
    assert.equal(groups.length, 1);
    const entry = toStreamEntry(groups[0]!, context);
    assert.deepEqual(entry.element.activity_ids, [3, 2, 1]);
    assert.equal(entry.element.activity_id, 3);
    assert.deepEqual(entry.element.subjectparams[0], {
      type: "collection",
      value: [
        { type: "file", value: "/f3.txt", id: 3 },
        { type: "file", value: "/f2.txt", id: 2 },
        { type: "file", value: "/f1.txt", id: 1 },
      ],
    });
    assert.match(
      entry.element.subject_prepared,
      /changed <collection><file [^>]+>f3\.txt<\/file><file [^>]+>f2\.txt<\/file><file [^>]+>f1\.txt<\/file><\/collection>$/,
    );
    assert.equal(entry.element.subject_rich[0], "{user} changed {file1}, {file2} and {file3}");
    assert.deepEqual(entry.element.objects, { "1": "/f1.txt", "2": "/f2.txt", "3": "/f3.txt" });
    // Added newest first (3, 2, 1), serialized by ascending id (docs/decisions.md, Activity).
    assert.equal(JSON.stringify(entry.element.objects), '{"1":"/f1.txt","2":"/f2.txt","3":"/f3.txt"}');
  });

  it("does not group across authors, subjects, an empty author, more than one differing parameter, or 3 days", () => {
    assert.equal(
      groupActivities([
        row(2),
        row(1, {
          user: "carol",
          subjectparams: [
            { type: "file", value: "/f1.txt", id: 1 },
            { type: "user", value: "carol" },
          ],
        }),
      ]).length,
      2,
    );
    assert.equal(groupActivities([row(2), row(1, { subject: "deleted_by" })]).length, 2);
    assert.equal(groupActivities([row(2, { user: "" }), row(1, { user: "" })]).length, 2);
    assert.equal(
      groupActivities([
        row(2),
        row(1, {
          subjectparams: [
            { type: "file", value: "/z" },
            { type: "user", value: "zed" },
          ],
        }),
      ]).length,
      2,
    );
    assert.equal(groupActivities([row(2), row(1, { timestamp: 1000 - 2 + 3 * 86_400 })]).length, 2);
  });

  it("caps a group at 6 members", () => {
    const groups = groupActivities([8, 7, 6, 5, 4, 3, 2, 1].map((id) => row(id)));
    assert.deepEqual(
      groups.map((g) => g.members.length),
      [6, 2],
    );
  });
});

describe("publish validation (research §9.1)", () => {
  const good = { app: "files", type: "file_changed", affecteduser: "alice", subject: "changed_self" };

  it("accepts a minimal event and one row per affected user", () => {
    const rows = validateBatch({ ...good, affecteduser: undefined, affectedusers: ["a", "b", "a"] }, 100);
    assert.ok(Array.isArray(rows));
    assert.deepEqual(
      rows.map((r) => [r.affecteduser, r.timestamp]),
      [
        ["a", 100],
        ["b", 100],
      ],
    );
  });

  it("names the element and the field of the first problem", () => {
    const cases: Array<[unknown, RegExp]> = [
      [[good, { ...good, app: "" }], /^event 1: field "app" must not be empty/],
      [[good, { ...good, app: "x".repeat(33) }], /^event 1: field "app" must be at most 32/],
      [{ ...good, subject: undefined }, /^event: field "subject" is required/],
      [{ ...good, type: "t".repeat(256) }, /field "type" must be at most 255/],
      [{ ...good, affecteduser: "u".repeat(65) }, /field "affecteduser" must be at most 64/],
      [{ ...good, user: "u".repeat(65) }, /field "user" must be at most 64/],
      [{ ...good, object_id: -1 }, /object_id/],
      [{ ...good, object_name: "n".repeat(4001) }, /object_name/],
      [{ ...good, link: "javascript:alert(1)" }, /field "link"/],
      [{ ...good, datetime: "yesterday" }, /datetime/],
      [{ ...good, subjectparams: [{ type: "bogus", value: "x" }] }, /subjectparams\[0\]\.type/],
      [{ ...good, subjectparams: [{ type: "collection", value: [{ type: "collection", value: [] }] }] }, /collection/],
      [{ ...good, affectedusers: ["b"] }, /exactly one of/],
      [{ ...good, colour: "red" }, /unknown field "colour"/],
      [[], /empty/],
    ];
    for (const [input, pattern] of cases) {
      const result = validateBatch(input, 100);
      assert.equal(typeof result, "string", `refused: ${JSON.stringify(input).slice(0, 80)}`);
      assert.match(result as string, pattern);
    }
  });

  it("an activity link is an absolute http(s) URL or a path that stays on this server (same rule as the login redirect)", () => {
    for (const link of [
      "/\\evil.com",
      "//evil.com",
      "/.//evil.com",
      "/..//evil.com/path",
      "/%2e//evil.com",
      "javascript:alert(1)",
    ]) {
      const result = validateBatch({ ...good, link }, 100);
      assert.equal(typeof result, "string", `refused ${link}`);
      assert.match(result as string, /field "link"/);
    }
    const linkOf = (link: string) => (validateBatch({ ...good, link }, 100) as Array<{ link: string }>)[0]?.link;
    assert.equal(linkOf("https://cloud.example/index.php/f/5"), "https://cloud.example/index.php/f/5");
    assert.equal(linkOf("/index.php/f/5?x=1"), "/index.php/f/5?x=1");
    assert.equal(linkOf("/index.php/./apps/../f/5"), "/index.php/f/5", "a path is stored as it was checked");
  });

  it("reads datetime as ISO 8601 with a zone, or epoch seconds", () => {
    const [a] = validateBatch({ ...good, datetime: "2026-01-02T03:04:05+00:00" }, 1) as Array<{ timestamp: number }>;
    assert.equal(a!.timestamp, Date.UTC(2026, 0, 2, 3, 4, 5) / 1000);
    const [b] = validateBatch({ ...good, datetime: 1234 }, 1) as Array<{ timestamp: number }>;
    assert.equal(b!.timestamp, 1234);
  });
});
