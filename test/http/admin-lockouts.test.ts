import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ManualClock, systemClock } from "../../src/clock.js";
import { settings as englishSettings } from "../../src/i18n/catalogues/en/settings.js";
import {
  CLIENT_ADDRESS_NAMESPACES,
  LOGIN_THROTTLE,
  loginBuckets,
  type ThrottlePolicy,
  TOKEN_THROTTLE,
  tokenBuckets,
} from "../../src/security/domain/throttle-policy.js";
import { SqlThrottleStore } from "../../src/storage/stores/security/throttle-store.js";
import { createAppOn, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { createTestStorage, type TestStorage, testDatabaseDialect } from "../support/storage.js";

const ADMIN = "/index.php/settings/admin/security";
const RESET = "/index.php/settings/admin/lockouts/reset";

/** Each throttle's state of an address the test knows to be valid. */
async function statesOf(node: Pick<TestApp, "services">, ip: string, namespace?: string) {
  const states = await node.services.addressThrottles.states(ip, namespace);
  assert.ok(states.ok, `${ip} is an address`);
  return states.value;
}

/** The rows of the admin page's throttled-addresses table: address, throttle, failures, state. */
function lockoutRows(body: string): Array<{ address: string; throttle: string; failures: number; state: string }> {
  const table = /<table class="responsive" id="lockout-list">([\s\S]*?)<\/table>/.exec(body)?.[1] ?? "";
  return [
    ...table.matchAll(
      /<tr><td[^>]*>([^<]*)<\/td><td[^>]*>([^<]*)<\/td><td[^>]*>(\d+)<\/td><td[^>]*>[^<]*<\/td><td[^>]*>([^<]*)<\/td>/g,
    ),
  ].map((match) => ({ address: match[1] ?? "", throttle: match[2] ?? "", failures: Number(match[3]), state: match[4] ?? "" }));
}

describe(`admin page: throttled client addresses are shown and lifted (${testDatabaseDialect})`, () => {
  let storage: TestStorage;
  let node: Pick<TestApp, "app" | "services">;
  let root: FormClient;
  const clock = new ManualClock(systemClock.nowSeconds());
  /** `count` failures in a bucket, as the endpoints settle them. */
  const fail = async (policy: ThrottlePolicy, key: string, count: number) => {
    const store = new SqlThrottleStore(storage.storage.db, policy);
    for (let i = 0; i < count; i++) await store.settle([key], { kind: "failure" }, clock.nowSeconds());
  };
  const adminPage = async () => {
    const page = await root.get(ADMIN);
    assert.equal(page.statusCode, 200);
    return page.body;
  };

  before(async () => {
    storage = await createTestStorage();
    node = await createAppOn(storage.storage, storage.dataDir, clock);
    accepted(await node.services.users.create({ uid: "root", password: "root password", isAdmin: true }));
    accepted(await node.services.users.create({ uid: "bob", password: "bob password" }));
    root = new FormClient(node.app, "198.51.100.1");
    assert.equal((await root.login("root", "root password")).statusCode, 303);
  });
  after(async () => {
    await node.app.close();
    await storage.cleanup();
  });

  it("the admin page lists each address whose failures still count, per throttle, IPv6 by its /64, and no user-name bucket", async () => {
    for (let i = 0; i < 2; i++) {
      assert.notEqual((await new FormClient(node.app, "192.0.2.20").login("bob", "wrong")).statusCode, 303);
    }
    await fail(TOKEN_THROTTLE, (tokenBuckets("2001:db8:5:6::1")[0] as { key: string }).key, 4);
    const rows = lockoutRows(await adminPage());
    const ipv4 = rows.filter((row) => row.address === "192.0.2.20");
    assert.deepEqual(
      ipv4.map(({ throttle, failures }) => ({ throttle, failures })),
      [{ throttle: "Sign-in (form and Basic)", failures: 2 }],
    );
    assert.match(ipv4[0]?.state ?? "", /^Next attempt waits \d+ s$/);
    assert.deepEqual(
      rows.filter((row) => row.address === "2001:db8:5:6::/64").map(({ throttle, failures }) => ({ throttle, failures })),
      [{ throttle: "Token endpoints", failures: 4 }],
    );
    assert.ok(!rows.some((row) => row.address.includes("user")), "the per-user login bucket is not an address's");
  });

  it("an address past the lockout ceiling is shown locked out, first, with the minutes left", async () => {
    await fail(
      LOGIN_THROTTLE,
      (loginBuckets("203.0.113.9", "bob")[0] as { key: string }).key,
      LOGIN_THROTTLE.lockoutAfterFailures,
    );
    const rows = lockoutRows(await adminPage());
    assert.deepEqual(rows[0], {
      address: "203.0.113.9",
      throttle: "Sign-in (form and Basic)",
      failures: LOGIN_THROTTLE.lockoutAfterFailures,
      state: `Locked out for ${Math.ceil(LOGIN_THROTTLE.lockoutSeconds / 60)} min`,
    });
    assert.equal((await new FormClient(node.app, "203.0.113.9").login("bob", "bob password")).statusCode, 429);
  });

  it("lifting an address forgets its failures in every throttle, redirects and says so; the address signs in again", async () => {
    await fail(TOKEN_THROTTLE, (tokenBuckets("203.0.113.9")[0] as { key: string }).key, 2);
    const lifted = await root.post(RESET, { requesttoken: requestTokenOf(await adminPage()), address: "203.0.113.9" });
    assert.equal(lifted.statusCode, 303, "post/redirect/get: a reload posts nothing again");
    assert.equal(lifted.headers.location, `${ADMIN}#lockouts`);
    const page = await adminPage();
    assert.match(
      page,
      new RegExp(
        `id="lockouts-notice">The throttle of 203\\.0\\.113\\.9 was lifted \\(failed attempts forgotten: ${LOGIN_THROTTLE.lockoutAfterFailures + 2}\\)\\.`,
      ),
    );
    assert.ok(!lockoutRows(page).some((row) => row.address === "203.0.113.9"));
    const after = await statesOf(node, "203.0.113.9");
    assert.deepEqual(
      after.map((state) => state.failures),
      after.map(() => 0),
    );
    assert.equal((await new FormClient(node.app, "203.0.113.9").login("bob", "bob password")).statusCode, 303);
  });

  it("an IPv6 client is lifted by the /64 the page shows", async () => {
    const lifted = await root.post(RESET, { requesttoken: requestTokenOf(await adminPage()), address: "2001:db8:5:6::/64" });
    assert.equal(lifted.statusCode, 303);
    assert.ok(!lockoutRows(await adminPage()).some((row) => row.address === "2001:db8:5:6::/64"));
    assert.equal((await statesOf(node, "2001:db8:5:6::abcd", "oauth"))[0]?.failures, 0);
  });

  it("text that is not an IP address is refused with 400 and a message, and nothing is lifted", async () => {
    const refused = await root.post(RESET, { requesttoken: requestTokenOf(await adminPage()), address: "192.0.2.20; drop" });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /id="lockouts-error" role="alert">&quot;192\.0\.2\.20; drop&quot; is not an IP address\./);
    assert.ok(lockoutRows(await adminPage()).some((row) => row.address === "192.0.2.20"));
  });

  it("only an administrator lifts a throttle: a user's post is refused and lifts nothing", async () => {
    const bob = new FormClient(node.app, "198.51.100.2");
    assert.equal((await bob.login("bob", "bob password")).statusCode, 303);
    const token = requestTokenOf((await bob.get("/index.php/settings/personal")).body);
    const refused = await bob.post(RESET, { requesttoken: token, address: "192.0.2.20" });
    assert.equal(refused.statusCode, 403);
    assert.equal((await statesOf(node, "192.0.2.20", "login"))[0]?.failures, 2);
  });

  it("every throttle that counts client addresses has a name on the page", () => {
    for (const namespace of CLIENT_ADDRESS_NAMESPACES) {
      assert.ok(`lockouts.throttle.${namespace}` in englishSettings, `a label for the ${namespace} throttle`);
    }
  });
});
