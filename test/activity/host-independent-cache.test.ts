import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestApp, type TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { basicAuthFor, fileEvent, get, publish } from "./support.js";

/**
 * The request's Host stays out of the activity page's caches: its base URL is in no key and no
 * cached rendering, only spliced into the answer. Many distinct hosts asking for the same user's
 * page add nothing to the caches' bytes, and each still gets its own base URL in every link, in
 * the same bytes a page made for it alone would have. A Host that is no host name is refused.
 */

const PAGE = "/ocs/v2.php/apps/activity/api/v2/activity/all?format=json&limit=50";

describe("the activity caches are independent of the request's Host", () => {
  let t: TestApp;
  let auth: string;
  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "carol", password: "carol password" }));
    auth = await basicAuthFor(t, "carol");
    await publish(
      t,
      Array.from({ length: 30 }, (_, i) =>
        fileEvent("carol", {
          // Distinct authors: no grouping, one element each; a path with characters both escapings change.
          user: `u${i}`,
          subject: "changed_by",
          subjectparams: [
            { type: "file", value: `/a "b" & <c>/f'${i}.txt`, id: 100 + i },
            { type: "user", value: `u${i}` },
          ],
          object_id: 100 + i,
          object_name: `/f${i}.txt`,
        }),
      ),
    );
  });
  after(() => t.close());

  const page = (host: string, url = PAGE) => get(t, url, auth, { host });
  /** A 250-character host name, distinct for each `i`. */
  const longHost = (i: number) => `h${i}-${"a".repeat(240 - String(i).length)}.example`;

  it("many distinct long hosts for the same user add no bytes to the caches", async () => {
    for (const url of [PAGE, `${PAGE}&previews=true`]) {
      const first = await page("cloud.example", url);
      assert.equal(first.statusCode, 200, first.body);
      // Once more: the answer now comes from the caches.
      assert.equal((await page("cloud.example", url)).body, first.body);
    }
    const filled = t.services.activity.cacheBytes();
    assert.ok(filled.elements > 0 && filled.answers > 0 && filled.renderings > 0, JSON.stringify(filled));
    for (let i = 0; i < 100; i++) {
      const host = longHost(i);
      assert.equal(host.length, 250);
      const response = await page(host);
      assert.equal(response.statusCode, 200, response.body);
      const bytes = t.services.activity.cacheBytes();
      assert.ok(bytes.elements <= filled.elements, `elements ${bytes.elements} > ${filled.elements}`);
      assert.ok(bytes.renderings <= filled.renderings, `renderings ${bytes.renderings} > ${filled.renderings}`);
      // The answer keeps its bytes for the last host only: one page's worth more, whatever the number of hosts.
      assert.ok(bytes.answers <= filled.answers + response.rawPayload.length, `answers ${bytes.answers}`);
    }
  });

  it("each host gets its own base URL in every link, in the bytes the first host's answer has with its base URL", async () => {
    const reference = (await page("cloud.example")).body;
    assert.match(reference, /"icon":"http:\/\/cloud\.example\/index\.php\/apps\/activity\/img\//);
    assert.match(reference, /"link":"http:\/\/cloud\.example\/index\.php\/f\/100"/);
    assert.match(
      reference,
      /<file link=\\"http:\/\/cloud\.example\/index\.php\/f\/100|link=\\"http:\/\/cloud\.example\/index\.php\/apps\/files/,
    );
    for (const host of ["other.example:8443", "[::1]:8080", "10.0.0.7", longHost(7)]) {
      const response = await page(host);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.body, reference.replaceAll("http://cloud.example", `http://${host}`), host);
      assert.doesNotMatch(response.body, /cloud\.example/);
    }
    // And back: the first host's bytes again.
    assert.equal((await page("cloud.example")).body, reference);
  });

  it("a Host that is no host name, or longer than 255 characters, is refused with 400 before anything is read", async () => {
    for (const host of [
      `${"a".repeat(256)}`,
      `h${"a".repeat(8000)}`,
      "a b",
      "evil.example/path",
      'x"y',
      "user@host",
      "host:port",
    ]) {
      const response = await page(host);
      assert.equal(response.statusCode, 400, host);
      assert.equal(response.json().error, "invalid_request", host);
      assert.doesNotMatch(response.body, /"ocs"/, "refused before the route");
    }
    assert.equal((await page("a".repeat(255))).statusCode, 200, "255 characters are a host");
  });
});
