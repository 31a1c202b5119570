import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import pino from "pino";
import { FileLogFollower } from "../../src/activity/file-log-follower.js";
import type { FileLogClaim, FileLogStretch, WriteTransaction } from "../../src/activity/ports.js";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import { SqlFileLogStore } from "../../src/storage/stores/activity/activity-file-log-store.js";
import { createAppOn, createTestApp, type TestApp } from "../support/app.js";
import { parseHostSetting } from "../support/host-settings.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { basicAuthFor, get, ocsData, proxyLogLine } from "./support.js";

const NOW = 4_000_000_000;
const silent = pino({ level: "silent" });

/** A follower as a node builds it, on `storage` (another node: another storage on the same database). */
function followerOn(t: TestApp, storage: Storage = t.testStorage.storage, linesPerBatch = 500, cursors?: SqlFileLogStore) {
  return new FileLogFollower({
    activity: t.services.activity,
    cursors: cursors ?? new SqlFileLogStore(storage.db),
    clock: t.clock,
    log: silent,
    linesPerBatch,
  });
}

interface Row {
  activity_id: number;
  type: string;
  subject: string;
  subjectparams: string;
  object_type: string;
  object_name: string;
  user: string;
  affecteduser: string;
  app: string;
  timestamp: number;
}

async function activities(t: TestApp, uid = "alice"): Promise<Row[]> {
  return (await t.services.storage.db
    .selectFrom("activity")
    .selectAll()
    .where("affecteduser", "=", uid)
    .where("app", "=", "files")
    .orderBy("activity_id")
    .execute()) as Row[];
}

const names = (rows: Row[]) => rows.map((r) => r.object_name);

describe("file activities from the proxy's access log (activity.file_log, occ activity:import-file-log)", () => {
  let t: TestApp;
  let log: string;

  beforeEach(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice" }));
    accepted(await t.services.users.create({ uid: "bob" }));
    log = path.join(t.testStorage.dataDir, "keystream-files.log");
  });
  afterEach(() => t.close());

  const write = (...lines: string[]) => fs.appendFileSync(log, lines.join(""));

  it("only successful requests become activities: 4xx and 5xx answers publish nothing", async () => {
    write(
      proxyLogLine({ id: 1, uri: "/remote.php/webdav/ok.txt", status: 201 }),
      proxyLogLine({ id: 2, uri: "/remote.php/webdav/denied.txt", status: 401 }),
      proxyLogLine({ id: 3, uri: "/remote.php/webdav/forbidden.txt", status: 403 }),
      proxyLogLine({ id: 4, uri: "/remote.php/webdav/locked.txt", status: 423 }),
      proxyLogLine({ id: 5, uri: "/remote.php/webdav/broken.txt", status: 500 }),
      proxyLogLine({ id: 6, uri: "/remote.php/webdav/gone.txt", method: "DELETE", status: 404 }),
      proxyLogLine({ id: 7, uri: "/remote.php/webdav/redirected", method: "MKCOL", status: 301 }),
    );
    const report = await followerOn(t).importFile(log);
    assert.deepEqual(names(await activities(t)), ["/ok.txt"]);
    assert.deepEqual(report, { lines: 7, published: 1, ignored: 6, unusable: 0 });
  });

  it("each write becomes the activity its method and answer mean, with file markup, object_type files and the path in the root", async () => {
    write(
      proxyLogLine({ id: 1, method: "MKCOL", uri: "/remote.php/webdav/Docs/" }),
      proxyLogLine({ id: 2, method: "PUT", status: 201, uri: "/remote.php/webdav/Docs/new.txt" }),
      proxyLogLine({ id: 3, method: "PUT", status: 204, uri: "/remote.php/webdav/Docs/new.txt" }),
      proxyLogLine({
        id: 4,
        method: "MOVE",
        status: 201,
        uri: "/remote.php/webdav/Docs/new.txt",
        destination: "https://cloud.example.com/remote.php/webdav/Docs/renamed.txt",
      }),
      proxyLogLine({
        id: 5,
        method: "MOVE",
        status: 204,
        uri: "/remote.php/webdav/Docs/renamed.txt",
        destination: "https://cloud.example.com/remote.php/webdav/moved.txt",
      }),
      proxyLogLine({
        id: 6,
        method: "COPY",
        status: 201,
        uri: "/remote.php/webdav/moved.txt",
        destination: "https://cloud.example.com/remote.php/webdav/copy.txt",
      }),
      proxyLogLine({ id: 7, method: "DELETE", status: 204, uri: "/remote.php/webdav/copy.txt", msec: NOW + 9 }),
      proxyLogLine({ id: 8, method: "PROPFIND", status: 207, uri: "/remote.php/webdav/" }),
      proxyLogLine({ id: 9, method: "PROPPATCH", status: 207, uri: "/remote.php/webdav/moved.txt" }),
    );
    await followerOn(t).importFile(log);
    const rows = await activities(t);
    const file = (value: string) => ({ type: "file", value });
    assert.deepEqual(
      rows.map((r) => [r.type, r.subject, JSON.parse(r.subjectparams), r.object_name]),
      [
        ["file_created", "created_self", [file("/Docs")], "/Docs"],
        ["file_created", "created_self", [file("/Docs/new.txt")], "/Docs/new.txt"],
        ["file_changed", "changed_self", [file("/Docs/new.txt")], "/Docs/new.txt"],
        ["file_changed", "renamed_self", [file("/Docs/renamed.txt"), file("/Docs/new.txt")], "/Docs/renamed.txt"],
        ["file_changed", "moved_self", [file("/moved.txt"), file("/Docs/renamed.txt")], "/moved.txt"],
        ["file_created", "created_self", [file("/copy.txt")], "/copy.txt"],
        ["file_deleted", "deleted_self", [file("/copy.txt")], "/copy.txt"],
      ],
    );
    for (const row of rows) {
      assert.equal(row.app, "files");
      assert.equal(row.object_type, "files");
      assert.equal(row.user, "alice");
    }
    assert.equal(rows.at(-1)?.timestamp, NOW + 9, "the activity is dated by the request, not by when it was read");
    // What a client reads: the `<file>` markup in the prepared subject.
    const listed = ocsData(
      await get(t, "/ocs/v2.php/apps/activity/api/v2/activity/all?format=json", await basicAuthFor(t, "alice")),
    );
    const deleted = listed.find((e: { activity_id: number }) => e.activity_id === rows.at(-1)?.activity_id);
    assert.match(deleted.subject_prepared, /^You deleted <file link="[^"]+" id="">copy\.txt<\/file>$/);
    assert.equal(deleted.object_name, "/copy.txt");
  });

  it("both URL shapes (ownCloud webdav, Nextcloud dav/files/<user>) give the same object_name", async () => {
    write(
      proxyLogLine({ id: 1, uri: "/remote.php/webdav/Photos/cat.jpg" }),
      proxyLogLine({ id: 2, uri: "/remote.php/dav/files/alice/Photos/cat.jpg" }),
    );
    await followerOn(t).importFile(log);
    assert.deepEqual(names(await activities(t)), ["/Photos/cat.jpg", "/Photos/cat.jpg"]);
  });

  it("request targets and Destination headers are percent-decoded once", async () => {
    write(
      proxyLogLine({ id: 1, uri: "/remote.php/webdav/My%20Docs/r%C3%A9sum%C3%A9.txt?x=1" }),
      proxyLogLine({ id: 2, uri: "/remote.php/dav/files/alice/100%2541.txt" }),
      proxyLogLine({
        id: 3,
        method: "MOVE",
        uri: "/remote.php/dav/files/alice/a%20b.txt",
        destination: "https://cloud.example.com/remote.php/dav/files/alice/c%20d.txt",
      }),
    );
    await followerOn(t).importFile(log);
    assert.deepEqual(names(await activities(t)), ["/My Docs/résumé.txt", "/100%41.txt", "/c d.txt"]);
  });

  it("a path outside the authorized user's own root publishes nothing", async () => {
    write(
      proxyLogLine({ id: 1, uri: "/remote.php/dav/files/bob/theirs.txt", user: "alice" }),
      proxyLogLine({ id: 2, uri: "/remote.php/dav/uploads/alice/123/00001", user: "alice" }),
      proxyLogLine({ id: 3, uri: "/remote.php/webdav/../../etc/passwd", user: "alice" }),
      proxyLogLine({ id: 4, uri: "/remote.php/webdav/%2E%2E/x", user: "alice" }),
      proxyLogLine({ id: 5, uri: "/remote.php/webdav/a%2Fb", user: "alice" }),
      proxyLogLine({ id: 6, uri: "/remote.php/webdav/bad%ZZ", user: "alice" }),
      proxyLogLine({
        id: 7,
        method: "MOVE",
        uri: "/remote.php/webdav/mine.txt",
        destination: "https://cloud.example.com/remote.php/dav/files/bob/mine.txt",
        user: "alice",
      }),
      proxyLogLine({ id: 8, uri: "/index.php/apps/files/x", user: "alice" }),
      proxyLogLine({ id: 9, uri: "/remote.php/webdav/anonymous.txt", user: "" }),
      proxyLogLine({ id: 10, uri: "/remote.php/dav/files/alice/", method: "MKCOL", user: "alice" }),
      proxyLogLine({ id: 11, uri: "/remote.php/webdav/nobody.txt", user: "carol" }),
    );
    const report = await followerOn(t).importFile(log);
    assert.deepEqual(await activities(t), []);
    assert.deepEqual(await activities(t, "bob"), []);
    assert.deepEqual(
      report,
      { lines: 11, published: 0, ignored: 10, unusable: 1 },
      "carol is no user: refused as publish refuses",
    );
  });

  it("a request is published at most once: reading the same lines again, or a copy of the log, publishes nothing", async () => {
    write(proxyLogLine({ id: 1, uri: "/remote.php/webdav/a.txt" }), proxyLogLine({ id: 2, uri: "/remote.php/webdav/b.txt" }));
    assert.equal((await followerOn(t).importFile(log)).published, 2);
    assert.equal((await followerOn(t).importFile(log)).published, 0, "the cursor is past both lines");
    const copy = `${log}.copy`;
    fs.copyFileSync(log, copy);
    assert.equal((await followerOn(t).importFile(copy)).published, 0, "a copy is the same log: same cursor");
    // Another log (another first line) that repeats a request already published: the request id decides.
    const other = `${log}.other`;
    fs.writeFileSync(
      other,
      proxyLogLine({ id: 3, uri: "/remote.php/webdav/c.txt" }) + proxyLogLine({ id: 2, uri: "/remote.php/webdav/b.txt" }),
    );
    assert.equal((await followerOn(t).importFile(other)).published, 1);
    assert.deepEqual(names(await activities(t)), ["/a.txt", "/b.txt", "/c.txt"]);
  });

  it("two nodes following the same log publish each request exactly once", async () => {
    for (let i = 1; i <= 40; i++) write(proxyLogLine({ id: i, uri: `/remote.php/webdav/f${i}.txt` }));
    const secondStorage = openStorage({ databaseUrl: t.testStorage.databaseUrl, dataDir: t.testStorage.dataDir });
    try {
      const nodeB = await createAppOn(secondStorage, t.testStorage.dataDir, t.clock);
      const a = followerOn(t, t.testStorage.storage, 3);
      const b = new FileLogFollower({
        activity: nodeB.services.activity,
        cursors: new SqlFileLogStore(secondStorage.db),
        clock: t.clock,
        log: silent,
        linesPerBatch: 3,
      });
      const [ra, rb] = await Promise.all([a.importFile(log), b.importFile(log)]);
      await nodeB.app.close();
      assert.equal(ra.published + rb.published, 40);
      const published = names(await activities(t)).sort();
      assert.deepEqual(published, Array.from({ length: 40 }, (_, i) => `/f${i + 1}.txt`).sort());
    } finally {
      await secondStorage.close();
    }
  });

  it("a restart between or during batches neither loses nor repeats a request", async () => {
    for (let i = 1; i <= 7; i++) write(proxyLogLine({ id: i, uri: `/remote.php/webdav/f${i}.txt` }));
    // The node dies in its second batch, after claiming a request id and writing its activity,
    // before the transaction commits.
    class DyingStore extends SqlFileLogStore {
      private batches = 0;
      override commit<R>(
        stretch: FileLogStretch,
        claims: readonly FileLogClaim<R>[],
        write: (trx: WriteTransaction, rows: R) => Promise<unknown>,
      ) {
        this.batches++;
        if (this.batches < 2) return super.commit(stretch, claims, write);
        return super.commit(stretch, claims, async (trx, rows) => {
          await write(trx, rows);
          throw new Error("killed");
        });
      }
    }
    const dying = followerOn(t, t.testStorage.storage, 3, new DyingStore(t.testStorage.storage.db));
    await assert.rejects(dying.importFile(log), /killed/);
    assert.deepEqual(
      names(await activities(t)),
      ["/f1.txt", "/f2.txt", "/f3.txt"],
      "the first batch is committed, the second not at all",
    );
    // The restarted node: a new connection to the database, a new follower.
    const restarted = openStorage({ databaseUrl: t.testStorage.databaseUrl, dataDir: t.testStorage.dataDir });
    try {
      const report = await followerOn(t, restarted).importFile(log);
      assert.equal(report.published, 4);
    } finally {
      await restarted.close();
    }
    assert.deepEqual(
      names(await activities(t)),
      Array.from({ length: 7 }, (_, i) => `/f${i + 1}.txt`),
    );
  });

  it("a partial last line is left for the next read", async () => {
    const third = proxyLogLine({ id: 3, uri: "/remote.php/webdav/c.txt" });
    write(proxyLogLine({ id: 1, uri: "/remote.php/webdav/a.txt" }), proxyLogLine({ id: 2, uri: "/remote.php/webdav/b.txt" }));
    write(third.slice(0, 40));
    const first = await followerOn(t).importFile(log);
    assert.deepEqual([first.lines, first.published, first.unusable], [2, 2, 0]);
    write(third.slice(40));
    const second = await followerOn(t).importFile(log);
    assert.deepEqual([second.lines, second.published, second.unusable], [1, 1, 0]);
    assert.deepEqual(names(await activities(t)), ["/a.txt", "/b.txt", "/c.txt"]);
  });

  it("a line that is not a keystream_files record is skipped, and the lines after it are read", async () => {
    write(
      proxyLogLine({ id: 1, uri: "/remote.php/webdav/a.txt" }),
      "not json at all\n",
      '{"request_id":"short","msec":"1","status":"201","method":"PUT","uri":"/remote.php/webdav/x"}\n',
      `${"x".repeat((1 << 20) + 10)}\n`,
      proxyLogLine({ id: 2, uri: "/remote.php/webdav/b.txt" }),
    );
    const report = await followerOn(t).importFile(log);
    assert.deepEqual(names(await activities(t)), ["/a.txt", "/b.txt"]);
    assert.equal(report.published, 2);
    assert.equal(report.unusable, 3, "the non-JSON line, the bad request id, and the rest of the overlong line");
  });

  it("a log that does not yet hold one complete line is left alone", async () => {
    write(proxyLogLine({ id: 1, uri: "/remote.php/webdav/a.txt" }).slice(0, 30));
    assert.deepEqual(await followerOn(t).importFile(log), { lines: 0, published: 0, ignored: 0, unusable: 0 });
    write(proxyLogLine({ id: 1, uri: "/remote.php/webdav/a.txt" }).slice(30));
    assert.equal((await followerOn(t).importFile(log)).published, 1);
  });

  it("a rotated log (renamed to .1) is finished from its cursor and the new log read from its start", async () => {
    write(proxyLogLine({ id: 1, uri: "/remote.php/webdav/a.txt" }));
    assert.equal((await followerOn(t).follow(log)).published, 1);
    // Written after the last round, then logrotate renames the file and nginx reopens a new one.
    write(proxyLogLine({ id: 2, uri: "/remote.php/webdav/b.txt" }));
    fs.renameSync(log, `${log}.1`);
    write(proxyLogLine({ id: 3, uri: "/remote.php/webdav/c.txt" }));
    assert.equal((await followerOn(t).follow(log)).published, 2);
    assert.equal((await followerOn(t).follow(log)).published, 0);
    assert.deepEqual(names(await activities(t)), ["/a.txt", "/b.txt", "/c.txt"]);
  });

  it("a truncated log (copytruncate) is a new log: its copy is finished, the file read again from the start", async () => {
    write(proxyLogLine({ id: 1, uri: "/remote.php/webdav/a.txt" }), proxyLogLine({ id: 2, uri: "/remote.php/webdav/b.txt" }));
    assert.equal((await followerOn(t).follow(log)).published, 2);
    write(proxyLogLine({ id: 3, uri: "/remote.php/webdav/c.txt" }));
    fs.copyFileSync(log, `${log}.1`);
    fs.truncateSync(log, 0);
    write(proxyLogLine({ id: 4, uri: "/remote.php/webdav/d.txt" }));
    assert.equal((await followerOn(t).follow(log)).published, 2);
    assert.deepEqual(names(await activities(t)), ["/a.txt", "/b.txt", "/c.txt", "/d.txt"]);
  });

  it("requests older than activity_expire_days publish nothing, and their ids are forgotten by the daily job", async () => {
    t.services.settings.set("activity_expire_days", 2);
    write(
      proxyLogLine({ id: 1, uri: "/remote.php/webdav/old.txt", msec: NOW - 3 * 86_400 }),
      proxyLogLine({ id: 2, uri: "/remote.php/webdav/recent.txt", msec: NOW - 86_400 }),
    );
    await followerOn(t).importFile(log);
    assert.deepEqual(names(await activities(t)), ["/recent.txt"]);
    const remembered = () => t.services.storage.db.selectFrom("file_log_requests").select("request_id").execute();
    assert.equal((await remembered()).length, 1);
    t.clock.advance(2 * 86_400);
    await t.services.jobs.runDueJobs();
    assert.deepEqual(await remembered(), []);
  });

  it("occ activity:import-file-log publishes a log's new lines once", async () => {
    write(
      proxyLogLine({ id: 1, uri: "/remote.php/webdav/a.txt" }),
      proxyLogLine({ id: 2, status: 500, uri: "/remote.php/webdav/b.txt" }),
    );
    const first = await runOccInProcess(["activity:import-file-log", log, "--output=json"], t.testStorage);
    assert.equal(first.code, 0, first.err);
    assert.deepEqual(JSON.parse(first.out), { lines: 2, published: 1, ignored: 1, unusable: 0 });
    const again = await runOccInProcess(["activity:import-file-log", log], t.testStorage);
    assert.equal(again.code, 0, again.err);
    assert.match(again.out, /Read 0 lines: 0 activities published/);
    const missing = await runOccInProcess(["activity:import-file-log", `${log}.missing`], t.testStorage);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /cannot read/);
    assert.deepEqual(names(await activities(t)), ["/a.txt"]);
  });

  it("each node follows the file activity.file_log names, read at every round; empty means off", async (ctx) => {
    write(proxyLogLine({ id: 1, uri: "/remote.php/webdav/a.txt" }));
    assert.throws(() => parseHostSetting("activity.file_log", "relative/path.log"), /absolute file path/);
    assert.equal(t.services.settings.get("activity.file_log"), "", "off by default");
    ctx.mock.timers.enable({ apis: ["setInterval"] });
    const errors: unknown[] = [];
    const follower = t.services.fileLog;
    follower.start(
      () => t.services.settings.get("activity.file_log"),
      5000,
      (error) => errors.push(error),
    );
    ctx.mock.timers.tick(5000);
    await follower.stop();
    assert.deepEqual(await activities(t), []);
    t.services.settings.set("activity.file_log", log);
    follower.start(
      () => t.services.settings.get("activity.file_log"),
      5000,
      (error) => errors.push(error),
    );
    ctx.mock.timers.tick(5000);
    await follower.stop();
    assert.deepEqual(names(await activities(t)), ["/a.txt"]);
    assert.deepEqual(errors, []);
  });
});
