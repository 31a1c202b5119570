import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { DEFAULT_CLIENTS } from "../../src/oauth/domain/default-clients.js";
import { isLegacyDesktopRefreshLoop, LEGACY_USER_AGENT_INSPECTED } from "../../src/oauth/domain/legacy-clients.js";
import type { TestApp } from "../support/app.js";
import { createOAuthTestApp, tokenRequest } from "./support.js";

/**
 * Issue 16 (review #8): the mirall 2.4.2 soft-fail (research A.1.2) without ownCloud's quadratic
 * regex. No timing is asserted: the bound on what is inspected is, and the behaviour.
 */

/** ownCloud's regex, the reference for what must still be detected. */
const OWNCLOUD_RULE = /\bmirall\b.+2\.4\.2/i;

describe("the mirall 2.4.2 User-Agent check (issue 16)", () => {
  it("the mirall 2.4.2 User-Agent forms are still recognised", () => {
    for (const agent of [
      "Mozilla/5.0 (Windows) mirall/2.4.2 (build 10047)",
      "Mozilla/5.0 (Linux) mirall/2.4.2 (build 9800)",
      "Mozilla/5.0 (Macintosh) mirall/2.4.2 (build 9800) (ownCloud, osx-17.7.0 ClientArchitecture: x86_64 OsArchitecture: x86_64)",
      "Mozilla/5.0 (Linux) mirall/2.4.2git (Nextcloud)",
      "MIRALL/2.4.2",
    ]) {
      assert.equal(isLegacyDesktopRefreshLoop(agent), true, agent);
    }
    for (const agent of ["Mozilla/5.0 mirall/2.5.0", "Mozilla/5.0 notmirall/2.4.2", "mirall/", "2.4.2 mirall", "", undefined]) {
      assert.equal(isLegacyDesktopRefreshLoop(agent), false, String(agent));
    }
  });

  it("within the inspected prefix, the check decides exactly as ownCloud's regex", () => {
    const piece = fc.constantFrom("mirall", "MIRALL", "mirall/", " ", "/", "2.4.2", "2", ".", "4", "x", "_", "\n", "é", "-");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const agent = pieces.join("");
        assert.equal(isLegacyDesktopRefreshLoop(agent), OWNCLOUD_RULE.test(agent), JSON.stringify(agent));
      }),
      { numRuns: 2000, seed: 20261124 },
    );
  });

  it("only the first LEGACY_USER_AGENT_INSPECTED characters of the User-Agent are inspected", () => {
    const real = " mirall/2.4.2";
    assert.equal(isLegacyDesktopRefreshLoop("x".repeat(LEGACY_USER_AGENT_INSPECTED - real.length) + real), true);
    // One character later, the version falls past the bound and is not seen (ownCloud's regex would see it).
    const pastTheBound = "x".repeat(LEGACY_USER_AGENT_INSPECTED - real.length + 1) + real;
    assert.equal(OWNCLOUD_RULE.test(pastTheBound), true);
    assert.equal(isLegacyDesktopRefreshLoop(pastTheBound), false);
    const versionPastTheBound = `mirall/${"x".repeat(LEGACY_USER_AGENT_INSPECTED)}2.4.2`;
    assert.equal(isLegacyDesktopRefreshLoop(versionPastTheBound), false);
    assert.ok(LEGACY_USER_AGENT_INSPECTED >= 256, "longer than a real client's User-Agent");
  });
});

describe("the refresh error path with a hostile User-Agent (issue 16)", () => {
  let t: TestApp;
  const desktop = DEFAULT_CLIENTS.find((c) => c.name === "Desktop Client");
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  const refreshWithoutToken = (userAgent: string) =>
    tokenRequest(t, { grant_type: "refresh_token", client_id: desktop?.clientId ?? "" }, { "user-agent": userAgent });

  it('a 16 KB User-Agent of 2300 words "mirall" gets the ordinary refresh error (400 invalid_request)', async () => {
    const response = await refreshWithoutToken("mirall ".repeat(2300));
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { error: "invalid_request" });
  });

  it("the real mirall 2.4.2 client still gets its refresh error with HTTP 200", async () => {
    const response = await refreshWithoutToken("Mozilla/5.0 (Windows) mirall/2.4.2 (build 10047)");
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { error: "invalid_request" });
  });
});
