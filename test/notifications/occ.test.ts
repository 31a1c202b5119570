import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { connectAs, listenForPush } from "../push/support.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { runOcc } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";

const LIST = "/ocs/v2.php/apps/notifications/api/v2/notifications?format=json";
const ALICE = { authorization: `Basic ${Buffer.from("alice:alice password").toString("base64")}` };

/** `./occ notification:generate` (nextcloud/notifications lib/Command/Generate.php), the real executable. */
describe(`./occ notification:generate (${testDatabaseDialect})`, () => {
  let t: TestApp;
  const occ = (...args: string[]) => runOcc(["notification:generate", ...args], t.testStorage);
  const list = async () => (await t.app.inject({ method: "GET", url: LIST, headers: ALICE })).json().ocs.data;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
  });
  after(() => t.close());

  it("sends an administrator's message with its long text; the user's client reads it as given", async () => {
    const result = await occ("alice", "Maintenance tonight", "-l", "The server restarts at 22:00.");
    assert.equal(result.code, 0, result.stderr);
    const id = Number(/^Notification with ID (\d+)$/m.exec(result.stdout)?.[1]);
    assert.ok(id > 0, result.stdout);
    const [n] = await list();
    assert.equal(n.notification_id, id);
    assert.equal(n.app, "admin_notifications");
    assert.equal(n.subject, "Maintenance tonight");
    assert.equal(n.message, "The server restarts at 22:00.");
    assert.equal(n.object_type, "admin_notifications");
    const long = await occ("alice", "Another", "--long-message=Second form of the option");
    assert.equal(long.code, 0, long.stderr);
    assert.equal((await list())[0].message, "Second form of the option");
  });

  it("--output-id-only prints the id alone; --object-type/--object-id replace the earlier one about the object", async () => {
    const first = await occ("alice", "Backup failed", "--object-type=backup", "--object-id=nightly", "--output-id-only");
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^\d+\n$/);
    const second = await occ("alice", "Backup failed again", "--object-type=backup", "--object-id=nightly");
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /^Previous notification for backup\/nightly marked as processed\nNotification with ID \d+\n$/);
    const about = (await list()).filter((n: { object_type: string }) => n.object_type === "backup");
    assert.deepEqual(
      about.map((n: { subject: string }) => n.subject),
      ["Backup failed again"],
    );
  });

  it("refuses an unknown user, an empty or too long short message, a too long long one: exit 1, nothing sent", async () => {
    const before = (await list()).length;
    const cases: Array<[string[], RegExp]> = [
      [["nobody", "Hello"], /Unknown user/],
      [["alice", ""], /Too long or empty short-message/],
      [["alice", "x".repeat(256)], /Too long or empty short-message/],
      [["alice", "Hello", "-l", "x".repeat(4001)], /Too long long-message/],
      [["alice", "Hello", "--object-type=backup"], /--object-type and --object-id go together/],
    ];
    for (const [args, message] of cases) {
      const result = await occ(...args);
      assert.equal(result.code, 1, `${args[1]?.slice(0, 20)}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, message);
    }
    assert.equal((await list()).length, before);
  });

  it("reaches the user's push socket on the server (another process: PostgreSQL NOTIFY; SQLite: the table read while sockets are open)", async () => {
    const url = await listenForPush(t.app);
    const client = await connectAs(url, "alice", "alice password");
    assert.equal(await client.next(), "authenticated");
    const result = await occ("alice", "Pushed");
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await client.next(), "notify_notification");
    await client.close();
  });
});
