import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { HostSettings } from "../../src/config/host-settings.js";
import { runOccInProcess } from "../support/occ.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";
import { packageVersion } from "./support.js";

/** Nothing listens on port 1 of the loopback interface: every connection is refused at once. */
const UNREACHABLE = "postgres://keystream:hunter2-sentinel@127.0.0.1:1/keystream";

describe("./occ status when the database does not answer", () => {
  let storage: TestStorage;
  let unreachable: { dataDir: string; databaseUrl: string };

  before(async () => {
    storage = await createTestStorage();
    unreachable = { dataDir: storage.dataDir, databaseUrl: UNREACHABLE };
    new HostSettings(storage.dataDir).set("maintenance", true);
  });
  after(() => storage.cleanup());

  it("shows what it knows without the database, says it is unreachable on stderr and exits 1", async () => {
    const result = await runOccInProcess(["status", "--output=json"], unreachable);
    assert.equal(result.code, 1);
    assert.equal(result.err, "the database postgres://127.0.0.1:1/keystream is unreachable (ECONNREFUSED)\n");
    const status = JSON.parse(result.out);
    assert.equal(status.installed, null, "not known without the database");
    assert.equal(status.version, packageVersion());
    assert.equal(status.data_directory, storage.dataDir);
    assert.equal(status.database, "postgres");
    assert.equal(status.database_location, "postgres://127.0.0.1:1/keystream");
    assert.equal(status.database_reachable, false);
    // From config.json, which needs no database.
    assert.equal(status.maintenance, true);
    assert.equal(status.host_settings_problem, null);
    assert.ok(!("users" in status) && !("pending_migrations" in status), "nothing the database would have said");
    assert.ok(!result.out.includes("hunter2-sentinel"), "never the password");
  });

  it("plain output says unknown and none rather than printing bare keys", async () => {
    const result = await runOccInProcess(["status"], unreachable);
    assert.equal(result.code, 1);
    assert.match(result.out, /^ {2}- installed: unknown$/m);
    assert.match(result.out, /^ {2}- database_reachable: false$/m);
    assert.match(result.out, /^ {2}- config_file: none$/m);
    assert.match(result.out, /^ {2}- host_settings_problem: none$/m);
    assert.doesNotMatch(result.out, /^ {2}- \S+$/m, "no key without its value");
  });

  it("a command that needs the database says the same in one line, exit 1", async () => {
    const result = await runOccInProcess(["user:list"], unreachable);
    assert.equal(result.code, 1);
    assert.equal(result.err, "the database postgres://127.0.0.1:1/keystream is unreachable (ECONNREFUSED)\n");
    assert.equal(result.out, "");
  });

  it("with the database up, plain output has no bare keys either", async () => {
    const result = await runOccInProcess(["status"], storage);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /^ {2}- database_reachable: true$/m);
    assert.match(result.out, /^ {2}- pending_migrations: none$/m);
    assert.doesNotMatch(result.out, /^ {2}- \S+$/m);
  });
});
