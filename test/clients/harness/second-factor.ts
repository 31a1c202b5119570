import assert from "node:assert/strict";
import { credentialUses } from "./nginx.js";
import { waitFor } from "./processes.js";
import { httpsGet } from "./scenario.js";
import type { Stage, StageUser } from "./stage.js";

/**
 * The desktop-client scenarios for a user with TOTP (docs/security.md "Second factors"): the
 * user sets it up in personal settings before the client signs in, and from then on the account
 * password alone opens nothing over HTTP Basic; the client signs in through the browser, where
 * the second factor is entered, and uses what it gets there (an OAuth token, an app password).
 */

/** The user's own OCS request, through nginx as a client sends it. */
const PROBE_PATH = "/ocs/v1.php/cloud/user?format=json";

function basic(uid: string, secret: string): string {
  return `Basic ${Buffer.from(`${uid}:${secret}`).toString("base64")}`;
}

/**
 * Enables TOTP for `user` in Chromium (a browser session of its own, closed after) and checks its
 * effect through nginx: the account password over Basic is refused with the reason, an app password
 * of the user is accepted. Returns the TOTP key for the later sign-in's challenge, and the ids of
 * Keystream's requests so far (the set-up's own), for a test to tell the client's requests apart.
 */
export async function setUpTotpInBrowser(
  stage: Stage,
  user: StageUser,
  appPassword: string,
): Promise<{ secret: string; setUpRequests: Set<string> }> {
  const secret = await stage.browser.enrolTotp(`${stage.publicUrl}/index.php/settings/personal`, user.uid, user.password);
  const state = JSON.parse(stage.keystream.occ(["twofactorauth:state", user.uid, "--output=json"])) as {
    enabled: boolean;
    providers: Record<string, boolean>;
  };
  assert.equal(state.enabled, true);
  assert.equal(state.providers.totp, true);
  const probe = (secret: string) =>
    httpsGet(`${stage.publicUrl}${PROBE_PATH}`, stage.pki.caCert, {
      authorization: basic(user.uid, secret),
      "ocs-apirequest": "true",
    });
  const refused = await probe(user.password);
  assert.equal(refused.status, 401, "the account password over Basic, for a user with a second factor");
  assert.equal(refused.headers["x-keystream-auth-refused"], "second-factor-required");
  assert.equal((await probe(appPassword)).status, 200, "an app password of the user");
  // nginx's credentials log tells the account password from other Basic credentials (its line
  // is written once the answer is sent: wait for both).
  const probes = () =>
    credentialUses(stage.nginxDir)
      .filter((use) => use.path === PROBE_PATH)
      .map((use) => `${use.credential} ${use.status} ${use.path}`);
  await waitFor("the probes in nginx's credentials log", () => probes().length >= 2, 10_000);
  assert.deepEqual(probes(), [`account-password 401 ${PROBE_PATH}`, `basic 200 ${PROBE_PATH}`]);
  // Keystream's log line of a request may follow its answer by a moment: wait for the two probes.
  await waitFor(
    "the set-up's probes in Keystream's log",
    () => stage.keystream.requests().filter((r) => r.url === PROBE_PATH).length === 2,
    10_000,
  );
  return { secret, setUpRequests: new Set(stage.keystream.requests().map((r) => r.reqId)) };
}

/**
 * No request through nginx carried the account password but the set-up's own refused probe: the
 * client used only what the browser step gave it. `used`: the credential kind the client uses,
 * which must appear, accepted, on the client's file requests.
 */
export function assertOnlyTheProbeSentTheAccountPassword(stage: Stage, used: "basic" | "bearer"): void {
  const uses = credentialUses(stage.nginxDir);
  const withPassword = uses.filter((use) => use.credential === "account-password");
  assert.deepEqual(
    withPassword.map((use) => `${use.method} ${use.path} ${use.status}`),
    [`GET ${PROBE_PATH} 401`],
  );
  const files = uses.filter((use) => use.path.startsWith("/remote.php/") && use.status < 400);
  assert.ok(files.length > 0, "the client's file requests are in the credentials log");
  assert.deepEqual([...new Set(files.map((use) => use.credential))], [used], JSON.stringify(files.slice(0, 5)));
}
