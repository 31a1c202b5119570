import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rowBytes } from "../../src/activity/domain/cache-sizes.js";
import { elementJson } from "../../src/activity/domain/element.js";
import { type ActivityGroup, groupActivities } from "../../src/activity/domain/grouping.js";
import type { RenderContext } from "../../src/activity/domain/prepared-text.js";
import { ElementJsonCache, PageCache, type PageExpectation, type PageRendering } from "../../src/activity/page-cache.js";
import type { ActivityRow, StoredRow } from "../../src/activity/ports.js";
import { baseForms, type RelativeJson, relativeJson, withBase } from "../../src/activity/relative-json.js";
import { BoundedCache } from "../../src/collections/bounded-cache.js";
import { ActivityRowCache } from "../../src/storage/stores/activity/activity-row-cache.js";

/**
 * The activity page's caches, unit by unit, without a server or a database: the row cache hands
 * out one object per stored row (StoredRow, activity/ports.ts), and the caches built on that
 * identity reuse a page only for the very same rows, language and display names, hold no base URL
 * (it is spliced into the answer), and stay within their byte budgets.
 */

function row(id: number, changes: Partial<ActivityRow> = {}): ActivityRow {
  return {
    activity_id: id,
    timestamp: 1_790_000_000 + id,
    app: "files",
    type: "file_changed",
    user: "frank",
    affecteduser: "erin",
    is_self: 0,
    category: "files",
    subject: "changed_by",
    subjectparams: JSON.stringify([
      { type: "file", value: `/f${id}.txt`, id },
      { type: "user", value: "frank" },
    ]),
    message: "",
    messageparams: "[]",
    link: "",
    object_type: "files",
    object_id: id,
    object_name: `/f${id}.txt`,
    ...changes,
  };
}

/** Rows as the store hands them out: through a row cache, the one maker of StoredRows. */
function stored(...rows: ActivityRow[]): StoredRow[] {
  return new ActivityRowCache().keep(rows);
}

const context = (
  baseUrl = "https://cloud.example",
  language: string | undefined = undefined,
  name = "Frank F",
): RenderContext => ({
  baseUrl,
  language,
  displayName: (uid) => (uid === "frank" ? name : undefined),
});

/** What listActivities remembers for a page of `rows` named by frank. */
function renderingOf(cache: PageCache, rows: readonly StoredRow[], named: readonly string[], at = context()): PageRendering {
  const groups = groupActivities(rows.map((r) => cache.decode(r)));
  return {
    rows,
    language: at.language,
    named,
    nameValues: named.map(at.displayName),
    groups,
    etag: "etag",
  };
}

function pageOf(rows: readonly StoredRow[], at = context(), names = new Map([["frank", "Frank F"]])) {
  return { rows, baseUrl: at.baseUrl, language: at.language, names };
}

describe("StoredRow: only a row cache makes one", () => {
  it("a plain row is not a StoredRow (checked by the type checker)", () => {
    const cache = new PageCache();
    // @ts-expect-error a row that did not come from a row cache cannot be decoded through the page cache
    assert.equal(cache.decode(row(1)).activity_id, 1);
  });
});

describe("the row cache (storage)", () => {
  it("hands out the same object for a row it keeps, each time", () => {
    const cache = new ActivityRowCache();
    const [a, b] = cache.keep([row(1), row(2)]);
    assert.equal(cache.get(1), a);
    assert.equal(cache.get(1), a);
    assert.equal(cache.get(2), b);
    assert.equal(cache.get(3), undefined);
  });

  it("keeps the rows as read: the same objects, in the same array", () => {
    const cache = new ActivityRowCache();
    const read = [row(1), row(2)];
    const kept = cache.keep(read);
    assert.equal(kept, read);
    assert.equal(kept[0], read[0]);
  });

  it("a row read again replaces the one kept: a new object, so nothing keyed on the old one is reused", () => {
    const cache = new ActivityRowCache();
    const [first] = cache.keep([row(1)]);
    const [again] = cache.keep([row(1)]);
    assert.notEqual(again, first);
    assert.deepEqual(again, first);
    assert.equal(cache.get(1), again);
  });

  it("holds at most its byte budget, dropping the rows least recently used first", () => {
    const budget = 5 * rowBytes(row(100));
    const cache = new ActivityRowCache(budget);
    cache.keep([row(1), row(2)]);
    cache.get(1);
    cache.keep([row(3), row(4)]);
    assert.ok(cache.bytes <= budget);
    assert.ok(cache.get(1), "used since the last turn: kept");
    for (let id = 5; id < 105; id++) {
      cache.keep([row(id)]);
      assert.ok(cache.bytes <= budget, `bytes ${cache.bytes} > ${budget}`);
    }
    assert.equal(cache.get(1), undefined);
    assert.equal(cache.get(2), undefined);
    assert.ok(cache.get(104));
  });

  it("counts a row's bytes with its text: long paths fill the budget with fewer rows, never more bytes", () => {
    const long = (id: number) => row(id, { object_name: `/${"d".repeat(4000)}/f${id}.txt` });
    const budget = 64 * 1024;
    const cache = new ActivityRowCache(budget);
    for (let id = 1; id <= 200; id++) {
      cache.keep([long(id)]);
      assert.ok(cache.bytes <= budget, `bytes ${cache.bytes} > ${budget}`);
    }
    assert.ok(rowBytes(long(1)) > 8000, "a 4,000-character path counts at two bytes a character");
    assert.ok(cache.get(200));
    assert.equal(cache.get(1), undefined);
  });
});

describe("the page cache", () => {
  it("decodes a stored row once: the same value for the same object, another for another object", () => {
    const cache = new PageCache();
    const [a] = stored(row(1));
    const [b] = stored(row(1));
    assert.equal(cache.decode(a!), cache.decode(a!));
    assert.notEqual(cache.decode(b!), cache.decode(a!));
    assert.deepEqual(cache.decode(b!), cache.decode(a!));
  });

  it("expects nothing of a reader it has not seen, and what the reader's last page needed after", () => {
    const cache = new PageCache();
    assert.deepEqual(cache.expectation("erin", "all"), { hiddenTypes: [], names: [] });
    const rows = stored(row(1));
    const expectation: PageExpectation = { hiddenTypes: ["shared"], names: ["frank"] };
    cache.remember("erin", "all", expectation, renderingOf(cache, rows, expectation.names));
    assert.equal(cache.expectation("erin", "all"), expectation);
    assert.deepEqual(cache.expectation("erin", "self"), { hiddenTypes: [], names: [] });
    assert.deepEqual(cache.expectation("frank", "all"), { hiddenTypes: [], names: [] });
  });

  it("reuses a reader's rendering for the same row objects, base URL, language and names", () => {
    const cache = new PageCache();
    const rows = stored(row(1), row(2));
    const expectation: PageExpectation = { hiddenTypes: [], names: ["frank"] };
    const made = renderingOf(cache, rows, expectation.names);
    cache.remember("erin", "all", expectation, made);
    const expected = cache.expectation("erin", "all");
    assert.equal(cache.rendering("erin", "all", expected, pageOf([...rows])), made);
    assert.equal(cache.rendering("erin", "all", expected, pageOf([...rows])), made, "again");
  });

  it("does not reuse a rendering when anything it shows may differ", () => {
    const cache = new PageCache();
    const rows = stored(row(1), row(2));
    const expectation: PageExpectation = { hiddenTypes: [], names: ["frank"] };
    cache.remember("erin", "all", expectation, renderingOf(cache, rows, expectation.names));
    const expected = cache.expectation("erin", "all");
    const miss = (why: string, page: ReturnType<typeof pageOf>, asked: PageExpectation = expected) =>
      assert.equal(cache.rendering("erin", "all", asked, page), undefined, why);
    miss("a renamed user", pageOf(rows, context(), new Map([["frank", "Frank Renamed"]])));
    miss("a deleted user", pageOf(rows, context(), new Map()));
    miss("another language", pageOf(rows, context(undefined, "de")));
    miss("the same rows read again (other objects, equal content)", pageOf(stored(row(1), row(2))));
    miss("another order", pageOf([rows[1]!, rows[0]!]));
    miss("a row fewer", pageOf([rows[0]!]));
    miss("a row more", pageOf([...rows, ...stored(row(3))]));
    miss("names read for another expectation", pageOf(rows), { hiddenTypes: [], names: ["frank"] });
    assert.equal(cache.rendering("erin", "self", expected, pageOf(rows)), undefined, "another filter");
    assert.equal(cache.rendering("gina", "all", expected, pageOf(rows)), undefined, "another reader");
  });

  it("reuses a reader's rendering for another base URL: nothing it holds depends on it", () => {
    const cache = new PageCache();
    const rows = stored(row(1), row(2));
    const expectation: PageExpectation = { hiddenTypes: [], names: ["frank"] };
    const made = renderingOf(cache, rows, expectation.names);
    cache.remember("erin", "all", expectation, made);
    const expected = cache.expectation("erin", "all");
    assert.equal(cache.rendering("erin", "all", expected, pageOf(rows, context("https://other.example"))), made);
  });

  it("keeps its expectations and renderings within their byte budgets", () => {
    const budgets = { expectations: 4096, renderings: 16 * 1024, answers: 16 * 1024, elements: 16 * 1024 };
    const cache = new PageCache(budgets);
    const rows = stored(row(1));
    const expectation: PageExpectation = { hiddenTypes: [], names: ["frank"] };
    for (let i = 0; i < 200; i++) {
      cache.remember(`reader${i}`, "all", expectation, renderingOf(cache, rows, expectation.names));
      assert.ok(cache.bytes.expectations <= budgets.expectations, `expectations ${cache.bytes.expectations}`);
      assert.ok(cache.bytes.renderings <= budgets.renderings, `renderings ${cache.bytes.renderings}`);
    }
    assert.deepEqual(cache.expectation("reader0", "all"), { hiddenTypes: [], names: [] }, "evicted");
    assert.equal(cache.rendering("reader0", "all", expectation, pageOf(rows)), undefined, "evicted");
    assert.equal(cache.expectation("reader199", "all"), expectation);
    assert.ok(cache.rendering("reader199", "all", expectation, pageOf(rows)));
  });

  it("answers the bytes made for a page's groups only for the same groups, envelope and previews", () => {
    const cache = new PageCache();
    const groups = groupActivities(stored(row(1)).map((r) => cache.decode(r)));
    const envelope = { head: Buffer.from("{"), tail: Buffer.from("}") };
    const body = relativeJson("answer");
    const answer = { envelope, previews: false, body, baseUrl: "https://cloud.example", bytes: Buffer.from("answer") };
    assert.equal(cache.answer(groups, envelope, false), undefined);
    cache.rememberAnswer(groups, answer);
    assert.equal(cache.answer(groups, envelope, false), answer);
    assert.equal(cache.answer(groups, envelope, true), undefined, "with previews");
    assert.equal(cache.answer(groups, { ...envelope }, false), undefined, "another envelope");
    assert.equal(cache.answer([...groups], envelope, false), undefined, "other groups");
  });

  it("keeps answers within their byte budget, however long the base URL they were last answered with", () => {
    const budget = 64 * 1024;
    const cache = new PageCache({ expectations: 4096, renderings: budget, answers: budget, elements: budget });
    const envelope = { head: Buffer.from("{"), tail: Buffer.from("}") };
    for (let i = 0; i < 100; i++) {
      const groups = groupActivities(stored(row(i)).map((r) => cache.decode(r)));
      const baseUrl = `https://${"h".repeat(240)}${i}.example`;
      const bytes = Buffer.from(`answer for ${baseUrl}`.repeat(20));
      cache.rememberAnswer(groups, { envelope, previews: false, body: relativeJson("answer"), baseUrl, bytes });
      assert.ok(cache.bytes.answers <= budget, `answers ${cache.bytes.answers}`);
    }
  });
});

describe("the element JSON cache", () => {
  const [group] = groupActivities(stored(row(1)).map((r) => new PageCache().decode(r))) as [ActivityGroup];

  function counting(maxBytes?: number) {
    let renders = 0;
    const cache = new ElementJsonCache((g, c) => {
      renders++;
      return elementJson(g, c);
    }, maxBytes);
    return { cache, renders: () => renders };
  }

  /** The element as answered for `at`: the cached JSON with its base URL spliced in. */
  const answered = (json: RelativeJson, at: RenderContext) => withBase(json, baseForms(at.baseUrl)).toString();

  it("renders an element once for the same rows, language and names, byte for byte what rendering it afresh gives", () => {
    const { cache, renders } = counting();
    const first = cache.json(group, context());
    assert.equal(cache.json(group, context()), first);
    assert.equal(renders(), 1);
    assert.equal(answered(first, context()), elementJson(group, context()));
  });

  it("holds no base URL: another base URL is spliced into the same rendering, as rendering it afresh would give", () => {
    const { cache, renders } = counting();
    const json = cache.json(group, context());
    assert.doesNotMatch(json.bytes.toString(), /cloud\.example/);
    // Characters JSON and markup escape differently, in the base URL itself.
    for (const baseUrl of ["https://other.example", "http://a.example:8080/sub", `https://x.example/"&'<>\\`]) {
      assert.equal(cache.json(group, context(baseUrl)), json);
      assert.equal(answered(json, context(baseUrl)), elementJson(group, context(baseUrl)), baseUrl);
    }
    assert.equal(renders(), 1);
  });

  it("renders again for a renamed user or another language", () => {
    const { cache, renders } = counting();
    cache.json(group, context());
    assert.match(answered(cache.json(group, context(undefined, undefined, "Frank Renamed")), context()), /Frank Renamed/);
    cache.json(group, context(undefined, "de"));
    assert.equal(renders(), 3);
  });

  it("keeps at most its byte budget of elements", () => {
    const budget = 8 * 1024;
    const { cache, renders } = counting(budget);
    const groups = Array.from(
      { length: 50 },
      (_, i) => groupActivities(stored(row(i + 1)).map((r) => new PageCache().decode(r)))[0]!,
    );
    for (const each of groups) {
      cache.json(each, context());
      assert.ok(cache.bytes <= budget, `bytes ${cache.bytes} > ${budget}`);
    }
    assert.equal(renders(), 50);
    cache.json(groups[49]!, context());
    assert.equal(renders(), 50, "the last one is kept");
    cache.json(groups[0]!, context());
    assert.equal(renders(), 51, "the first one was evicted");
  });
});

describe("the bounded cache", () => {
  it("keeps at most its byte budget, and an entry used since the last turn survives it", () => {
    const cache = new BoundedCache<string, number>(4, () => 1);
    cache.set("a", 1);
    cache.set("b", 2);
    assert.equal(cache.get("a"), 1);
    cache.set("c", 3);
    cache.set("d", 4);
    assert.equal(cache.get("a"), 1, "used since the turn");
    for (let i = 0; i < 50; i++) {
      cache.set(`k${i}`, i);
      assert.ok(cache.size <= 4, `size ${cache.size}`);
      assert.ok(cache.bytes <= 4, `bytes ${cache.bytes}`);
    }
    assert.equal(cache.get("b"), undefined);
    assert.equal(cache.get("k49"), 49);
  });

  it("counts entries by their size: large ones leave room for fewer, one past half the budget is not kept", () => {
    const cache = new BoundedCache<string, string>(1000, (key, value) => key.length + value.length);
    for (let i = 0; i < 100; i++) {
      cache.set(`k${i}`, "v".repeat(i * 5));
      assert.ok(cache.bytes <= 1000, `bytes ${cache.bytes}`);
    }
    cache.set("huge", "v".repeat(600));
    assert.equal(cache.get("huge"), undefined);
    cache.set("k1", "small");
    cache.set("k1", "v".repeat(600));
    assert.equal(cache.get("k1"), undefined, "a value too large to keep does not leave the older one in its place");
    assert.ok(cache.bytes <= 1000);
  });

  it("replacing an entry counts its new size, not both", () => {
    const cache = new BoundedCache<string, string>(1000, (_key, value) => value.length);
    cache.set("a", "x".repeat(100));
    cache.set("a", "x".repeat(10));
    assert.equal(cache.bytes, 10);
  });
});
