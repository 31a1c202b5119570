import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { type OwnerCheck, ownerRefusal, shellQuote } from "../../src/cli/data-dir-owner.js";
import { assertBuilt, COMPILED_OCC, OCC, REPO_ROOT, runProcess } from "../support/occ.js";
import { treeOf } from "./support.js";

const myUid = process.geteuid?.() ?? -1;
const NOBODY = { uid: 65534, gid: 65534 };

/** A user's name as the system's user database has it (what occ's message shows). */
function nameOf(uid: number): string | undefined {
  try {
    return execFileSync("getent", ["passwd", String(uid)], { encoding: "utf8" }).split(":")[0] || undefined;
  } catch {
    return undefined;
  }
}

const check = (overrides: Partial<OwnerCheck>): OwnerCheck => ({
  processUid: 0,
  processUser: "root",
  checkedPath: "/var/lib/keystream",
  dataDir: "/var/lib/keystream",
  ownerUid: 998,
  ownerUser: "keystream",
  occ: "./occ",
  argv: ["config:system:set", "overwrite.cli.url", "--value=https://keystream.test:18443"],
  preserve: [],
  ...overrides,
});

describe("occ runs as the owner of the data directory, or not at all (the rule)", () => {
  it("its owner may run it; root may only where root owns the data directory", () => {
    assert.equal(ownerRefusal(check({ processUid: 998, processUser: "keystream" })), undefined);
    assert.equal(ownerRefusal(check({ ownerUid: 0, ownerUser: "root" })), undefined);
  });

  it("anyone else, root included, is refused with the command to run as the owner, arguments and all", () => {
    assert.equal(
      ownerRefusal(check({ preserve: ["KEYSTREAM_DATA_DIR", "KEYSTREAM_DATABASE_URL"] })),
      "occ runs as root (uid 0), but the data directory /var/lib/keystream belongs to keystream (uid 998), " +
        "the user the server runs as: files occ wrote there would be unreadable to the server. Run it as keystream: " +
        "sudo -u keystream --preserve-env=KEYSTREAM_DATA_DIR,KEYSTREAM_DATABASE_URL ./occ config:system:set overwrite.cli.url --value=https://keystream.test:18443 " +
        "(or: runuser -u keystream -- ./occ config:system:set overwrite.cli.url --value=https://keystream.test:18443)",
    );
    assert.match(
      ownerRefusal(check({ processUid: 1000, processUser: "alice", argv: ["status"] })) ?? "",
      /^occ runs as alice \(uid 1000\), but .* sudo -u keystream \.\/occ status \(or: runuser -u keystream -- \.\/occ status\)$/,
    );
  });

  it("a data directory not created yet is judged by the directory it would be created in", () => {
    const refusal = ownerRefusal(check({ dataDir: "/var/lib/keystream/new", argv: ["migrate"] }));
    assert.match(
      refusal ?? "",
      /^occ runs as root \(uid 0\), but the data directory \/var\/lib\/keystream\/new does not exist yet and \/var\/lib\/keystream, where it would be created, belongs to keystream \(uid 998\)/,
    );
    assert.equal(ownerRefusal(check({ dataDir: "/var/lib/keystream/new", ownerUid: 0, ownerUser: "root" })), undefined);
  });

  it("an owner the user database does not name is given by uid: sudo's #uid form, and no runuser", () => {
    const refusal = ownerRefusal(check({ ownerUser: undefined, argv: ["status"] })) ?? "";
    assert.match(refusal, /belongs to uid 998, the user the server runs as/);
    assert.match(refusal, /Run it as uid 998: sudo -u '#998' \.\/occ status$/);
    assert.doesNotMatch(refusal, /runuser/);
  });

  it("the command it names reads back in a POSIX shell as exactly the original arguments", () => {
    const argv = ["user:add", "alice", "--display-name=Alice A", "--email=o'neil@example.com", "", "$HOME", "*", "a\nb"];
    const line = argv.map(shellQuote).join(" ");
    const echoed = execFileSync("sh", ["-c", `set -- ${line}; printf '%s\\0' "$@"`], { encoding: "utf8" });
    assert.deepEqual(echoed.split("\0").slice(0, -1), argv);
    assert.equal(shellQuote("--value=https://cloud.example.com/index.php"), "--value=https://cloud.example.com/index.php");
  });
});

/**
 * A data directory another user owns, and the path occ judges it by: as root, a directory given to
 * nobody (65534); otherwise a directory not created yet inside one of another user's (the
 * temporary directory or the root, root's), which cannot be given away without root.
 */
function foreignDataDir(): { dataDir: string; checkedPath: string; ownerUid: number } | undefined {
  if (myUid === 0) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-owner-"));
    fs.chownSync(dataDir, NOBODY.uid, NOBODY.gid);
    return { dataDir, checkedPath: dataDir, ownerUid: NOBODY.uid };
  }
  for (const candidate of [os.tmpdir(), "/"]) {
    const ownerUid = fs.statSync(candidate).uid;
    if (ownerUid !== myUid) {
      return {
        dataDir: path.join(candidate, `keystream-never-${randomBytes(6).toString("hex")}`),
        checkedPath: candidate,
        ownerUid,
      };
    }
  }
  return undefined;
}

/** Whether `user` may read this checkout's compiled occ (a checkout under a private home may not be). */
function canRun(user: { uid: number; gid: number }): boolean {
  const probe = spawnSync(process.execPath, ["-e", `require("fs").accessSync(${JSON.stringify(COMPILED_OCC)}, 4)`], user);
  return probe.status === 0;
}

describe("the real ./occ and the owner of the data directory", () => {
  const made: string[] = [];
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });
  /** Only what the test sets: the refusal repeats these variables, so they must be known. */
  const envFor = (dataDir: string) => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", KEYSTREAM_DATA_DIR: dataDir });

  it("as another user than the owner (root included): exit 1, the exact message naming the command to run, nothing written", async (t) => {
    assertBuilt();
    const foreign = foreignDataDir();
    if (!foreign) {
      t.skip("no directory of another user exists here, and a non-root process cannot give one away");
      return;
    }
    made.push(foreign.dataDir);
    const before = treeOf(foreign.dataDir);
    const argv = ["config:system:set", "overwrite.cli.url", "--value=https://keystream.test/a b"];
    const result = await runProcess(OCC, argv, envFor(foreign.dataDir));
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, "");
    const me = nameOf(myUid);
    const owner = nameOf(foreign.ownerUid);
    assert.ok(me && owner, "both users have names here");
    const command = `${OCC} config:system:set overwrite.cli.url '--value=https://keystream.test/a b'`;
    const where =
      foreign.checkedPath === foreign.dataDir
        ? `the data directory ${foreign.dataDir}`
        : `the data directory ${foreign.dataDir} does not exist yet and ${foreign.checkedPath}, where it would be created,`;
    assert.equal(
      result.stderr,
      `occ runs as ${me} (uid ${myUid}), but ${where} belongs to ${owner} (uid ${foreign.ownerUid}), the user the server runs as: ` +
        `files occ wrote there would be unreadable to the server. Run it as ${owner}: ` +
        `sudo -u ${owner} --preserve-env=KEYSTREAM_DATA_DIR ${command} (or: runuser -u ${owner} -- ${command})\n`,
    );
    assert.deepEqual(treeOf(foreign.dataDir), before, "nothing created or changed");
    // Every command that opens the instance is refused, a reading one too.
    assert.equal((await runProcess(OCC, ["status"], envFor(foreign.dataDir))).code, 1);
  });

  it("commands that touch nothing (list, --help, --version, completion) answer whoever runs them", async (t) => {
    const foreign = foreignDataDir();
    if (!foreign) {
      t.skip("no directory of another user exists here, and a non-root process cannot give one away");
      return;
    }
    made.push(foreign.dataDir);
    for (const argv of [["list"], ["--help"], ["--version"], ["completion", "bash"], ["status", "--help"]]) {
      const result = await runProcess(OCC, argv, envFor(foreign.dataDir));
      assert.equal(result.code, 0, `${argv.join(" ")}: ${result.stderr}`);
    }
  });

  it("as the owner the command runs, and the config.json it writes is the owner's, mode 0600", async () => {
    assertBuilt();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-owner-"));
    made.push(dataDir);
    const result = await runProcess(OCC, ["config:system:set", "session.lifetime", "--value=3600"], envFor(dataDir));
    assert.equal(result.code, 0, result.stderr);
    const stat = fs.statSync(path.join(dataDir, "config.json"));
    assert.equal(stat.mode & 0o777, 0o600);
    assert.equal(stat.uid, myUid);
  });

  it("run as the service's user (what the refusal tells root to do), occ writes files that user owns, owner-only", async (t) => {
    if (myUid !== 0) {
      t.skip("only root can start a process as another user");
      return;
    }
    if (!canRun(NOBODY)) {
      t.skip(`nobody (65534) cannot read ${REPO_ROOT}`);
      return;
    }
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-owner-"));
    made.push(dataDir);
    fs.chownSync(dataDir, NOBODY.uid, NOBODY.gid);
    const env = envFor(dataDir);
    const set = await runProcess(
      OCC,
      ["config:system:set", "session.lifetime", "--value=3600"],
      env,
      undefined,
      REPO_ROOT,
      NOBODY,
    );
    assert.equal(set.code, 0, set.stderr);
    const added = await runProcess(OCC, ["user:add", "alice"], env, undefined, REPO_ROOT, NOBODY);
    assert.equal(added.code, 0, added.stderr);
    for (const file of fs.readdirSync(dataDir)) {
      const stat = fs.statSync(path.join(dataDir, file));
      assert.equal(stat.uid, NOBODY.uid, file);
      assert.equal(stat.mode & 0o077, 0, `${file} is owner-only`);
    }
    assert.equal(fs.statSync(path.join(dataDir, "config.json")).mode & 0o777, 0o600);
    // And root, refused, changes nothing of it.
    const refused = await runProcess(OCC, ["config:system:set", "session.lifetime", "--value=60"], env);
    assert.equal(refused.code, 1);
    assert.equal(JSON.parse(fs.readFileSync(path.join(dataDir, "config.json"), "utf8"))["session.lifetime"], 3600);
  });
});
