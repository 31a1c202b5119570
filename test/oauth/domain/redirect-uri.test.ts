import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  decodeSuppliedRedirectUri,
  hostMatches,
  isValidRedirectUri,
  loopbackAnyPort,
  redirectTarget,
  redirectUriMatches,
} from "../../../src/oauth/domain/redirect-uri.js";

describe("redirectUriMatches() (research A.3)", () => {
  const matches = (registered: string, given: string, subdomains = false) => redirectUriMatches(registered, given, subdomains);

  it("an identical URI matches", () => {
    assert.equal(matches("https://app.example.com/cb", "https://app.example.com/cb"), true);
  });
  it("a different protocol does not match", () => {
    assert.equal(matches("https://app.example.com/cb", "http://app.example.com/cb"), false);
  });
  it("a different host does not match", () => {
    assert.equal(matches("https://app.example.com/cb", "https://evil.example.com/cb"), false);
  });
  it("a different port does not match, and a default port equals no port", () => {
    assert.equal(matches("https://app.example.com/cb", "https://app.example.com:8443/cb"), false);
    assert.equal(matches("https://app.example.com/cb", "https://app.example.com:443/cb"), true);
  });
  it("a different path does not match, and a trailing-slash difference does not match", () => {
    assert.equal(matches("https://app.example.com/cb", "https://app.example.com/other"), false);
    assert.equal(matches("https://app.example.com/cb", "https://app.example.com/cb/"), false);
  });
  it("an empty http path equals /", () => {
    assert.equal(matches("https://owncloud.org", "https://owncloud.org/"), true);
  });
  it("a different query does not match; an empty ? equals no query", () => {
    assert.equal(matches("https://app.example.com/cb?q=1", "https://app.example.com/cb?q=1"), true);
    assert.equal(matches("https://app.example.com/cb?q=1", "https://app.example.com/cb?q=0"), false);
    assert.equal(matches("https://app.example.com/cb", "https://app.example.com/cb?q=1"), false);
    assert.equal(matches("https://app.example.com/cb", "https://app.example.com/cb?"), true);
  });
  it("fragment and user info are ignored", () => {
    assert.equal(matches("https://app.example.com/cb", "https://app.example.com/cb#frag"), true);
    assert.equal(matches("https://app.example.com/cb", "https://user:pw@app.example.com/cb"), true);
  });
  it("host comparison is case-insensitive (WHATWG lower-cases)", () => {
    assert.equal(matches("https://App.Example.com/cb", "https://app.EXAMPLE.com/cb"), true);
  });
  it("http://localhost:* matches any port on localhost, keeping path and query", () => {
    assert.equal(matches("http://localhost:*", "http://localhost:12345"), true);
    assert.equal(matches("http://localhost:*", "http://localhost:1/"), true);
    assert.equal(matches("http://localhost:*/test?q=1", "http://localhost:12345/test?q=1"), true);
    assert.equal(matches("http://localhost:*/test?q=1", "http://localhost:12345/test?q=2"), false);
  });
  it("http://localhost:* does not match another host, 127.0.0.1, or https", () => {
    assert.equal(matches("http://localhost:*", "http://evil.com:12345"), false);
    assert.equal(matches("http://localhost:*", "http://127.0.0.1:12345"), false);
    assert.equal(matches("http://localhost:*", "https://localhost:12345"), false);
  });
  it("the any-port wildcard is only http://localhost:* exactly, or on a loopback address", () => {
    assert.equal(matches("http://example.com:*", "http://example.com:80"), false);
    assert.equal(matches("HTTP://localhost:*", "http://localhost:12345"), false);
    assert.equal(matches("http://127.0.0.2:*", "http://127.0.0.2:80"), false);
  });
  it("RFC 8252 §7.3: http://127.0.0.1:* and http://[::1]:* match any port on that loopback address, keeping path and query", () => {
    assert.equal(matches("http://127.0.0.1:*/", "http://127.0.0.1:51004"), true);
    assert.equal(matches("http://127.0.0.1:*/", "http://127.0.0.1"), true);
    assert.equal(matches("http://[::1]:*/cb?x=1", "http://[::1]:8000/cb?x=1"), true);
    assert.equal(matches("http://[::1]:*/cb", "http://[::1]:8000/cb/other"), false);
    assert.equal(matches("http://127.0.0.1:*/", "http://localhost:51004"), false);
    assert.equal(matches("http://127.0.0.1:*/", "https://127.0.0.1:51004"), false);
    assert.equal(matches("http://127.0.0.1:*/", "http://127.0.0.1.evil.example:51004"), false);
    assert.equal(isValidRedirectUri("http://127.0.0.1:*/cb"), true);
    assert.equal(isValidRedirectUri("http://[::1]:*"), true);
  });
  it("loopbackAnyPort: a loopback http URI with its port made the wildcard; nothing for any other URI", () => {
    assert.equal(loopbackAnyPort("http://127.0.0.1"), "http://127.0.0.1:*/");
    assert.equal(loopbackAnyPort("http://[::1]:4000/cb?x=1"), "http://[::1]:*/cb?x=1");
    assert.equal(loopbackAnyPort("http://LOCALHOST:8080/redirect"), "http://localhost:*/redirect");
    for (const uri of [
      "https://127.0.0.1/cb",
      "http://127.0.0.2/cb",
      "http://example.com/cb",
      "com.example:/cb",
      "http://127.0.0.1/#f",
    ]) {
      assert.equal(loopbackAnyPort(uri), undefined, uri);
    }
  });
  it("a port is compared when the registered localhost URI has a fixed port", () => {
    assert.equal(matches("http://localhost:8080/cb", "http://localhost:8081/cb"), false);
  });
  it("allow-sub-domains: the host itself and deeper subdomains match", () => {
    assert.equal(matches("https://owncloud.org/cb", "https://owncloud.org/cb", true), true);
    assert.equal(matches("https://owncloud.org/cb", "https://sso.owncloud.org/cb", true), true);
    assert.equal(matches("https://owncloud.org/cb", "https://a.b.owncloud.org/cb", true), true);
  });
  it("allow-sub-domains: another domain does not match, compared label by label", () => {
    assert.equal(matches("https://owncloud.org/cb", "https://sso.owncloud.de/cb", true), false);
    assert.equal(matches("https://trustedclient.com/cb", "https://munity.trustedclient.community/cb", true), false);
    assert.equal(matches("https://owncloud.org/cb", "https://evilowncloud.org/cb", true), false);
  });
  it("without allow-sub-domains a subdomain does not match", () => {
    assert.equal(matches("https://owncloud.org/cb", "https://sso.owncloud.org/cb"), false);
  });
  it("an unparseable URI never matches", () => {
    assert.equal(matches("https://app.example.com/cb", "not a uri"), false);
    assert.equal(matches("x", "x"), false);
  });
  it("custom schemes compare host and path", () => {
    assert.equal(matches("oc://android.owncloud.com", "oc://android.owncloud.com"), true);
    assert.equal(matches("oc://android.owncloud.com", "oc://ios.owncloud.com"), false);
  });
});

describe("hostMatches()", () => {
  it("a registered host longer than the actual one does not match", () => {
    assert.equal(hostMatches("sso.owncloud.org", "owncloud.org", true), false);
  });
});

describe("isValidRedirectUri() (research A.3 registration)", () => {
  for (const valid of [
    "http://localhost:*",
    "http://localhost:*/oc/10.0",
    "oc://com.android",
    "file://test.txt",
    "https://app.example.com/cb?x=1",
  ]) {
    it(`accepts ${valid}`, () => assert.equal(isValidRedirectUri(valid), true));
  }
  for (const invalid of [
    "x",
    "http://owncloud.org:*",
    "",
    "https://exa mple.com/",
    "https:///path",
    "oc:nohost",
    "http://under_score.com/",
  ]) {
    it(`refuses ${JSON.stringify(invalid)}`, () => assert.equal(isValidRedirectUri(invalid), false));
  }
});

describe("decodeSuppliedRedirectUri() (research A.3: decoded once more)", () => {
  it("decodes %xx and +, leaves malformed escapes", () => {
    assert.equal(decodeSuppliedRedirectUri("https%3A%2F%2Fapp.example.com%2Fcb"), "https://app.example.com/cb");
    assert.equal(decodeSuppliedRedirectUri("a+b"), "a b");
    assert.equal(decodeSuppliedRedirectUri("100%zz"), "100%zz");
  });
});

describe("redirectTarget()", () => {
  it("appends ? with ownCloud's exact output for a URI without query", () => {
    assert.equal(
      redirectTarget("https://owncloud.org", { error: "unsupported_response_type" }),
      "https://owncloud.org?error=unsupported_response_type",
    );
  });
  it("uses & when the URI has a query, drops the URI's fragment, skips absent values, encodes", () => {
    assert.equal(
      redirectTarget("https://a.example/cb?x=1#f", { code: "c", state: undefined }),
      "https://a.example/cb?x=1&code=c",
    );
    assert.equal(redirectTarget("https://a.example/cb", { state: "a b&c" }), "https://a.example/cb?state=a%20b%26c");
  });
  it("puts implicit-flow parameters in the fragment", () => {
    assert.equal(
      redirectTarget("https://a.example/cb", { access_token: "t" }, "fragment"),
      "https://a.example/cb#access_token=t",
    );
  });
});
