import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { safeLink, sameOriginPath } from "../../src/security/same-origin.js";

/** Paths that a browser resolves to another host (security review #1, #16). */
const OFF_SITE = [
  "//evil.com",
  "/\\evil.com",
  "/.//evil.com",
  "/..//evil.com/path",
  "/%2e//evil.com",
  "/%2E%2E//evil.com",
  "/./..//evil.com",
  "/a/..//evil.com",
  "/\t/evil.com",
  "/\n/evil.com",
  "/.\t//evil.com",
];

describe("same-origin targets (src/security/same-origin.ts)", () => {
  it("a same-origin target is judged on its normalised form: dot segments, tabs and backslashes that lead off-site are refused", () => {
    for (const target of OFF_SITE) assert.equal(sameOriginPath(target), undefined, JSON.stringify(target));
    for (const target of ["https://evil.com/", "http://keystream.invalid/x", "javascript:alert(1)", "evil.com", " /x", "", 42]) {
      assert.equal(sameOriginPath(target), undefined, JSON.stringify(target));
    }
  });

  it("a same-origin target is returned as it was checked: normalised, percent-encoded, with query and fragment", () => {
    assert.equal(sameOriginPath("/index.php/settings/personal?x=1#a"), "/index.php/settings/personal?x=1#a");
    assert.equal(sameOriginPath("/a/./b/../c"), "/a/c");
    assert.equal(sameOriginPath("/..//"), undefined);
    assert.equal(sameOriginPath("/a b?q=<x>"), "/a%20b?q=%3Cx%3E");
    // A query may say anything: it cannot change the host.
    assert.equal(
      sameOriginPath("/index.php/apps/oauth2/authorize?redirect_uri=https://client.example//cb"),
      "/index.php/apps/oauth2/authorize?redirect_uri=https://client.example//cb",
    );
    // What was returned passes the rule again unchanged (the check is stable).
    for (const target of ["/a/./b", "/%2e/x", "/x?y=%2F%2F"]) {
      const once = sameOriginPath(target);
      assert.ok(once);
      assert.equal(sameOriginPath(once), once);
    }
  });

  it("a safe link is an absolute http(s) URL or a same-origin path, nothing else", () => {
    assert.equal(safeLink("https://cloud.example/f/1"), "https://cloud.example/f/1");
    assert.equal(safeLink("http://cloud.example/"), "http://cloud.example/");
    assert.equal(safeLink("/index.php/f/5"), "/index.php/f/5");
    assert.equal(safeLink("/./f/5"), "/f/5");
    for (const link of [...OFF_SITE, "javascript:alert(1)", "data:text/html,x", "ftp://x/", "f/5"]) {
      assert.equal(safeLink(link), undefined, JSON.stringify(link));
    }
  });
});
