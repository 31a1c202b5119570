import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  displayedUserCode,
  mayUseDeviceGrant,
  normalizedUserCode,
  pollTooSoon,
  USER_CODE_ALPHABET,
} from "../../../src/oauth/domain/device-flow.js";

describe("device flow rules (RFC 8628)", () => {
  it("a user code is typed case-insensitively, dashes and spaces ignored (§6.1)", () => {
    assert.equal(normalizedUserCode("WDJB-MJHT"), "WDJBMJHT");
    assert.equal(normalizedUserCode(" wdjb mjht "), "WDJBMJHT");
    assert.equal(normalizedUserCode("wd-jb-mj-ht"), "WDJBMJHT");
  });

  it("text that cannot be a user code is not one: length, vowels, digits", () => {
    assert.equal(normalizedUserCode("WDJB-MJH"), undefined);
    assert.equal(normalizedUserCode("WDJB-MJHTB"), undefined);
    assert.equal(normalizedUserCode("WDJB-MJHA"), undefined, "no vowels");
    assert.equal(normalizedUserCode("WDJB-MJH1"), undefined);
    assert.equal(normalizedUserCode(""), undefined);
  });

  it("the alphabet is the 20 consonants of §6.1; a code is shown as two groups of four", () => {
    assert.equal(USER_CODE_ALPHABET, "BCDFGHJKLMNPQRSTVWXZ");
    assert.equal(new Set(USER_CODE_ALPHABET).size, 20);
    assert.equal(displayedUserCode("WDJBMJHT"), "WDJB-MJHT");
  });

  it("a poll sooner than the interval after the previous one is too soon; the first never (§3.5)", () => {
    assert.equal(pollTooSoon(null, 5, 100), false);
    assert.equal(pollTooSoon(100, 5, 104), true);
    assert.equal(pollTooSoon(100, 5, 105), false);
    assert.equal(pollTooSoon(100, 10, 105), true);
  });

  it("clients with account access (the ownCloud and Nextcloud apps) may not use the grant; others may", () => {
    assert.equal(mayUseDeviceGrant({ accountAccess: true }), false);
    assert.equal(mayUseDeviceGrant({ accountAccess: false }), true);
    assert.equal(mayUseDeviceGrant({}), true);
  });
});
