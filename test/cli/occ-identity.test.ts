import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runOcc } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { createTestServices, type TestServices } from "../support/services.js";
import { testDatabaseDialect } from "../support/storage.js";

/** One line on stderr: the operator's error message. */
function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, `one line, got: ${JSON.stringify(stderr)}`);
  return lines[0] as string;
}

/**
 * The real `./occ` keeps identities apart: a deleted user's name goes to a new account only with
 * `user:add --reuse-deleted-name`, an address belongs to one account, and `user:modify … email
 * --verified` is the one way an address becomes verified.
 */
describe(`./occ: user names and e-mail addresses (${testDatabaseDialect})`, () => {
  let t: TestServices;
  const occ = (args: string[], env: Record<string, string> = {}) => runOcc(args, t.testStorage, env);

  before(async () => {
    t = await createTestServices();
  });
  after(() => t.close());

  it("user:add refuses a deleted user's name (exit 1, one line naming --reuse-deleted-name); with the flag the name is given anew", async () => {
    assert.equal((await occ(["user:add", "eve", "--email=eve.first@example.com"])).code, 0);
    const deleted = await occ(["user:delete", "eve"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.stdout, 'The user "eve" was deleted\n');

    const refused = await occ(["user:add", "eve", "--email=eve.second@example.com", "--password-from-env"], {
      OC_PASS: "eve password",
    });
    assert.equal(refused.code, 1);
    assert.equal(
      oneLine(refused.stderr),
      'the user name "eve" belonged to a deleted account: the applications that account signed in to would take a new account of that name for it. To give the name to a new account on purpose: ./occ user:add --reuse-deleted-name "eve"',
    );
    assert.equal(refused.stdout, "");
    assert.equal(await t.services.users.find("eve"), undefined);

    const reused = await occ(["user:add", "--reuse-deleted-name", "eve", "--email=eve.second@example.com"]);
    assert.equal(reused.code, 0, reused.stderr);
    assert.match(reused.stdout, /^The user "eve" was created successfully\n/);
    assert.equal(accepted(await t.services.users.require("eve")).email, "eve.second@example.com");
    const help = await occ(["user:add", "--help"]);
    assert.match(help.stdout, /--reuse-deleted-name/);
  });

  it("user:add --email refuses an address another account has, whatever its case: exit 1, one line, no account", async () => {
    accepted(await t.services.users.create({ uid: "alice", email: "alice@example.com" }));
    const refused = await occ(["user:add", "mallory", "--email=Alice@Example.COM"]);
    assert.equal(refused.code, 1);
    assert.equal(oneLine(refused.stderr), 'the email address "Alice@Example.COM" is already used by another account');
    assert.equal(await t.services.users.find("mallory"), undefined);
  });

  it("user:modify <uid> email sets an unverified address; with --verified it is marked verified; the next change unmarks it", async () => {
    accepted(await t.services.users.create({ uid: "bob", email: "bob@example.com" }));
    const verified = await occ(["user:modify", "bob", "email", "bob@example.org", "--verified"]);
    assert.equal(verified.code, 0, verified.stderr);
    assert.equal(verified.stdout, "The email address of bob updated to bob@example.org, marked verified\n");
    let bob = accepted(await t.services.users.require("bob"));
    assert.deepEqual([bob.email, bob.emailVerified], ["bob@example.org", true]);

    const again = await occ(["user:modify", "bob", "email", "bob@example.net"]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, "The email address of bob updated to bob@example.net, not verified\n");
    bob = accepted(await t.services.users.require("bob"));
    assert.deepEqual([bob.email, bob.emailVerified], ["bob@example.net", false]);

    const taken = await occ(["user:modify", "bob", "email", "ALICE@example.com", "--verified"]);
    assert.equal(taken.code, 1);
    assert.equal(oneLine(taken.stderr), 'the email address "ALICE@example.com" is already used by another account');
    assert.equal(accepted(await t.services.users.require("bob")).email, "bob@example.net");
  });

  it("user:modify <uid> displayname, and its refusals: unknown key, empty value, --verified without email, unknown user", async () => {
    accepted(await t.services.users.create({ uid: "carol" }));
    const named = await occ(["user:modify", "carol", "displayname", "Carol C"]);
    assert.equal(named.code, 0, named.stderr);
    assert.equal(named.stdout, "The displayname of carol updated to Carol C\n");
    assert.equal(accepted(await t.services.users.require("carol")).displayName, "Carol C");
    for (const [args, message] of [
      [["carol", "phone", "123"], "Supported keys are displayname, email"],
      [["carol", "email", ""], "The value cannot be empty"],
      [["carol", "displayname", "X", "--verified"], "--verified goes with the key email only"],
      [["nobody", "email", "nobody@example.com"], 'the user "nobody" does not exist'],
      [["carol", "email", "not an address"], '"not an address" is not a valid email address'],
    ] as const) {
      const result = await occ(["user:modify", ...args]);
      assert.equal(result.code, 1, args.join(" "));
      assert.equal(oneLine(result.stderr), message);
    }
    assert.equal(accepted(await t.services.users.require("carol")).email, null);
  });

  it("user:setting <uid> settings email reads and writes the account's address, under the same rule", async () => {
    accepted(await t.services.users.create({ uid: "dora", email: "dora@example.com" }));
    const read = await occ(["user:setting", "dora", "settings", "email"]);
    assert.equal(read.stdout, "dora@example.com\n");
    const taken = await occ(["user:setting", "dora", "settings", "email", "alice@EXAMPLE.com"]);
    assert.equal(taken.code, 1);
    assert.equal(oneLine(taken.stderr), 'the email address "alice@EXAMPLE.com" is already used by another account');
    const set = await occ(["user:setting", "dora", "settings", "email", "dora@example.org"]);
    assert.equal(set.code, 0, set.stderr);
    assert.equal(accepted(await t.services.users.require("dora")).email, "dora@example.org");
  });
});
