import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { throttleAddressOf } from "../../../src/security/domain/client-address.js";
import {
  loginBuckets,
  loginFlowPollBuckets,
  loginFlowStartBuckets,
  tokenBuckets,
} from "../../../src/security/domain/throttle-policy.js";

/**
 * The address a per-address throttle bucket counts a client under (src/security/domain/client-address.ts):
 * IPv4 per address, IPv6 per /64 (RFC 6177 §2), an IPv4-mapped IPv6 address as its IPv4 address.
 */
describe("the throttle's client address", () => {
  it("an IPv4 address is its own bucket, unchanged", () => {
    for (const ip of ["192.0.2.1", "127.0.0.1", "0.0.0.0", "255.255.255.255"]) assert.equal(throttleAddressOf(ip), ip);
    assert.notEqual(throttleAddressOf("192.0.2.1"), throttleAddressOf("192.0.2.2"));
  });

  it("every address of one IPv6 /64 gives the one key of that /64, in RFC 5952 form", () => {
    const spellings = [
      "2001:db8:1:2::1",
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0db8:0001:0002:0000:0000:0000:0001",
      "2001:DB8:1:2:A:B:C:D",
      "2001:db8:1:2:0:0:0:0",
      "2001:db8:1:2::",
      "2001:db8:1:2::c0a8:101",
      "2001:db8:1:2::192.168.1.1",
      "2001:db8:1:2:1::",
      "2001:db8:1:2::1%eth0",
      "2001:db8:1:2::1%25",
    ];
    for (const ip of spellings) assert.equal(throttleAddressOf(ip), "2001:db8:1:2::/64", ip);
  });

  it("the next /64, a /64 that differs only in its fourth group, and other prefixes are other buckets", () => {
    assert.equal(throttleAddressOf("2001:db8:1:3::1"), "2001:db8:1:3::/64");
    assert.equal(throttleAddressOf("2001:db8:1:2:8000::1"), "2001:db8:1:2::/64", "the interface half does not matter");
    assert.equal(throttleAddressOf("2001:db8::1"), "2001:db8::/64");
    assert.equal(throttleAddressOf("2001:db8:0:0:1::1"), "2001:db8::/64");
    assert.equal(throttleAddressOf("2001:db8:0:1::1"), "2001:db8:0:1::/64");
    assert.equal(throttleAddressOf("fe80::1%eth0"), "fe80::/64");
    assert.equal(throttleAddressOf("::1"), "::/64");
    assert.equal(throttleAddressOf("::"), "::/64");
    assert.equal(throttleAddressOf("ffff:ffff:ffff:ffff::"), "ffff:ffff:ffff:ffff::/64");
    assert.equal(throttleAddressOf("1:0:0:1::"), "1:0:0:1::/64", "no `::` inside the prefix when a later group is set");
  });

  it("an IPv4-mapped IPv6 address, however written, is the IPv4 address it carries", () => {
    for (const ip of [
      "::ffff:192.0.2.1",
      "::FFFF:192.0.2.1",
      "::ffff:c000:201",
      "0:0:0:0:0:ffff:c000:0201",
      "::ffff:192.0.2.1%lo",
    ]) {
      assert.equal(throttleAddressOf(ip), "192.0.2.1", ip);
    }
    assert.equal(throttleAddressOf("::ffff:0.0.0.0"), "0.0.0.0");
    assert.equal(throttleAddressOf("::ffff:255.255.255.255"), "255.255.255.255");
    // Not mapped: the IPv4-compatible form (deprecated, RFC 4291 §2.5.5.1) and a 64:ff9b:: translation.
    assert.equal(throttleAddressOf("::192.0.2.1"), "::/64");
    assert.equal(throttleAddressOf("::1:ffff:c000:201"), "::/64");
    assert.equal(throttleAddressOf("64:ff9b::192.0.2.1"), "64:ff9b::/64");
  });

  it("text that is not an IP address stays as it is", () => {
    for (const text of ["unknown", "", "2001:db8::g", "1.2.3", "::ffff:1.2.3.4.5", "[2001:db8::1]"]) {
      assert.equal(throttleAddressOf(text), text, JSON.stringify(text));
    }
  });

  it("every per-address bucket of every policy counts an IPv6 client per /64 and an IPv4-mapped client as IPv4", () => {
    const a = "2001:db8:aa:bb::1";
    const b = "2001:db8:aa:bb:1234:5678:9abc:def0";
    for (const buckets of [tokenBuckets, loginFlowStartBuckets, loginFlowPollBuckets, (ip: string) => loginBuckets(ip, "u")]) {
      assert.deepEqual(buckets(a), buckets(b));
      assert.deepEqual(buckets("::ffff:198.51.100.7"), buckets("198.51.100.7"));
    }
    assert.deepEqual(loginBuckets(a, "u")[0], { key: "login:ip:2001:db8:aa:bb::/64", shared: true });
    assert.deepEqual(tokenBuckets("::ffff:198.51.100.7"), [{ key: "oauth:ip:198.51.100.7", shared: true }]);
  });
});
