import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { basicAuthFor, fileEvent, get, ocsData, publish } from "./support.js";

describe("web stream /index.php/apps/activity/", () => {
  let t: TestApp;
  let ids: number[];
  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "erin", password: "erin password", displayName: "Erin E" }));
    accepted(await t.services.users.create({ uid: "bob", displayName: "Bob <b>" }));
    const now = t.clock.nowSeconds();
    // Five edits by bob of different files: one grouped element (collection of 5).
    const grouped = [1, 2, 3, 4, 5].map((i) =>
      fileEvent("erin", {
        user: "bob",
        subject: "changed_by",
        subjectparams: [
          { type: "file", value: `/docs/f${i}.txt`, id: i },
          { type: "user", value: "bob" },
        ],
        datetime: now - 100 + i,
      }),
    );
    const single = fileEvent("erin", {
      subjectparams: [{ type: "file", value: `/a<&">'.txt`, id: 9 }],
      datetime: now,
      link: "javascript:x".replace("javascript:x", "https://example.com/x?a=1&b=2"),
    });
    ids = await publish(t, [...grouped, single]);
    for (let i = 0; i < 60; i++)
      await publish(
        t,
        fileEvent("erin", {
          subject: "created_self",
          type: "file_created",
          subjectparams: [{ type: "file", value: `/old${i}` }],
          datetime: now - 10_000 - i * 10_000,
          user: i % 2 ? "erin" : "",
        }),
      );
  });
  after(() => t.close());

  it("redirects to the login page without a session", async () => {
    const response = await get(t, "/index.php/apps/activity/");
    assert.equal(response.statusCode, 303);
  });

  it("shows the stream with filters, escaped names, links and a collection as 3 then ' and N more'", async () => {
    const browser = new FormClient(t.app);
    await browser.login("erin", "erin password");
    const page = await browser.get("/index.php/apps/activity/");
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers["content-security-policy"]), /script-src 'self'/);
    assert.match(page.body, /<a href="\/index\.php\/apps\/activity\/files">File changes<\/a>/);
    assert.match(
      page.body,
      /You changed <a class="file" href="[^"]+scrollto=a%3C%26%22%3E%27\.txt">a&lt;&amp;&quot;&gt;&#39;\.txt<\/a>/,
    );
    assert.doesNotMatch(page.body, /a<&">'/);
    assert.match(
      page.body,
      /<strong class="user" title="bob">Bob &lt;b&gt;<\/strong> changed <span class="collection">.*f5\.txt.*f4\.txt.*f3\.txt<\/a> and <span class="more" title="docs\/f2\.txt, docs\/f1\.txt">2 more<\/span><\/span>/,
    );
    assert.match(page.body, /<a href="https:\/\/example\.com\/x\?a=1&amp;b=2">open<\/a>/);
    assert.match(page.body, new RegExp(`data-activity-id="${ids.at(-1)}"`));
  });

  it("loads older pages with the API's own paging (since = Last-Given) until the end", async () => {
    const browser = new FormClient(t.app);
    await browser.login("erin", "erin password");
    let url: string | undefined = "/index.php/apps/activity/";
    const seen = new Set<string>();
    let pages = 0;
    while (url) {
      const page = await browser.get(url);
      assert.equal(page.statusCode, 200);
      for (const m of page.body.matchAll(/data-activity-id="(\d+)"/g)) {
        assert.ok(!seen.has(m[1]!), "no repeats");
        seen.add(m[1]!);
      }
      pages++;
      url = /id="activity-older" href="([^"]+)"/.exec(page.body)?.[1]?.replaceAll("&amp;", "&");
    }
    assert.equal(pages, 2);
    assert.equal(seen.size, 2 + 60, "one grouped element, one single, sixty old ones");
  });

  it("answers 404 for an unknown filter page", async () => {
    const browser = new FormClient(t.app);
    await browser.login("erin", "erin password");
    assert.equal((await browser.get("/index.php/apps/activity/nope")).statusCode, 404);
    assert.equal((await browser.get("/index.php/apps/activity/security")).statusCode, 200);
  });

  it("serves the icons the API names, same-origin", async () => {
    const erin = await basicAuthFor(t, "erin");
    const [element] = ocsData(await get(t, "/index.php/apps/activity/api/v2/activity?limit=1", erin));
    const path = new URL(element.icon).pathname;
    const icon = await get(t, path);
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers["content-type"], "image/svg+xml");
    assert.equal((await get(t, "/index.php/apps/activity/img/nope.svg")).statusCode, 404);
  });
});

describe("legacy activity list /ocs/v{1,2}.php/cloud/activity", () => {
  let t: TestApp;
  let fred: string;
  let ids: number[];
  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "fred" }));
    fred = await basicAuthFor(t, "fred");
    const now = t.clock.nowSeconds();
    ids = await publish(
      t,
      Array.from({ length: 7 }, (_, i) =>
        fileEvent("fred", {
          subjectparams: [{ type: "file", value: `/f${i}`, id: i }],
          datetime: now - 7 + i,
          link: "https://example.com/l",
        }),
      ),
    );
  });
  after(() => t.close());

  it("lists newest first with page/pagesize (OCS v2 JSON, the desktop client's request)", async () => {
    const response = await get(t, "/ocs/v2.php/cloud/activity?page=0&pagesize=3&format=json", fred);
    assert.equal(response.statusCode, 200);
    const data = ocsData(response);
    assert.deepEqual(
      data.map((d) => d.id),
      [ids[6], ids[5], ids[4]],
    );
    assert.deepEqual(Object.keys(data[0]), ["id", "subject", "message", "file", "link", "date"]);
    assert.equal(data[0].subject, "You changed f6");
    assert.equal(data[0].link, "https://example.com/l");
    assert.match(data[0].date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    const page2 = ocsData(await get(t, "/ocs/v2.php/cloud/activity?page=2&pagesize=3&format=json", fred));
    assert.deepEqual(
      page2.map((d) => d.id),
      [ids[0]],
    );
  });

  it("lists with start/count on OCS v1 (statuscode 100)", async () => {
    const response = await get(t, "/ocs/v1.php/cloud/activity?start=5&count=10&format=json", fred);
    const body = JSON.parse(response.body);
    assert.equal(body.ocs.meta.statuscode, 100);
    assert.deepEqual(
      body.ocs.data.map((d: any) => d.id),
      [ids[1], ids[0]],
    );
  });

  it("requires authentication", async () => {
    assert.equal((await get(t, "/ocs/v2.php/cloud/activity?format=json")).statusCode, 401);
  });
});

describe("web stream: links stored before the link rule", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "erin", password: "erin password" }));
  });
  after(() => t.close());

  it("the page links an activity only when its link passes the same-origin rule (rows written before it included)", async () => {
    const row = (link: string, id: number) => ({
      // Days apart: three elements, not one group.
      timestamp: t.clock.nowSeconds() - id * 4 * 86_400,
      app: "files",
      type: "file_created",
      user: "erin",
      affecteduser: "erin",
      is_self: 1,
      category: "files",
      subject: "created_self",
      subjectparams: JSON.stringify([{ type: "file", value: `/f${id}.txt` }]),
      message: "",
      messageparams: "[]",
      link,
      object_type: "files",
      object_id: id,
      object_name: `/f${id}.txt`,
    });
    // Written straight to the table, as the old, looser validation let them in.
    await t.testStorage.storage.db
      .insertInto("activity")
      .values([row("/\\evil.example", 1), row("/.//evil.example", 2), row("/index.php/f/3", 3)])
      .execute();
    const browser = new FormClient(t.app);
    await browser.login("erin", "erin password");
    const page = await browser.get("/index.php/apps/activity/");
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<a href="\/index\.php\/f\/3">open<\/a>/);
    assert.doesNotMatch(page.body, /evil\.example/);
  });
});
