import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, it, mock } from "node:test";
import { readEnvironment } from "../../src/config/environment.js";
import { HostSettings, hostSettingDefinitions } from "../../src/config/host-settings.js";
import { parseHostSetting } from "../support/host-settings.js";

describe("host settings (config.json in the data directory)", () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-settings-"));
  });
  afterEach(() => {
    mock.timers.reset();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("defaults apply when nothing is stored, and no file is created by reading", () => {
    const settings = new HostSettings(dataDir);
    assert.equal(settings.get("token_auth_enforced"), false);
    assert.equal(settings.get("maintenance"), false);
    assert.equal(settings.get("overwrite.cli.url"), "");
    assert.equal(settings.get("session.lifetime"), 86_400);
    assert.equal(settings.getStored("token_auth_enforced"), undefined);
    assert.equal(fs.existsSync(settings.file), false);
  });

  it("writes JSON atomically (temporary file, then rename), readable only by the owner", () => {
    const settings = new HostSettings(dataDir);
    settings.set("overwrite.cli.url", "https://cloud.example.com");
    settings.set("token_auth_enforced", true);
    assert.deepEqual(JSON.parse(fs.readFileSync(settings.file, "utf8")), {
      "overwrite.cli.url": "https://cloud.example.com",
      token_auth_enforced: true,
    });
    assert.equal(fs.statSync(settings.file).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(dataDir), ["config.json"], "no temporary file left behind");
    // Replaced by rename, never rewritten in place: a reader that opened the old file still
    // reads the whole old content (an in-place write would truncate what it reads).
    const before = fs.readFileSync(settings.file, "utf8");
    const reader = fs.openSync(settings.file, "r");
    try {
      settings.set("session.lifetime", 3600);
      const buffer = Buffer.alloc(4096);
      const length = fs.readSync(reader, buffer, 0, buffer.length, 0);
      assert.equal(buffer.subarray(0, length).toString("utf8"), before);
    } finally {
      fs.closeSync(reader);
    }
    assert.equal(JSON.parse(fs.readFileSync(settings.file, "utf8"))["session.lifetime"], 3600);
    // Another reader (./occ, another node) sees the values.
    const other = new HostSettings(dataDir);
    assert.equal(other.get("token_auth_enforced"), true);
    assert.equal(other.getStored("overwrite.cli.url"), "https://cloud.example.com");
    assert.equal(other.delete("token_auth_enforced"), true);
    assert.equal(other.delete("token_auth_enforced"), false);
    assert.equal(new HostSettings(dataDir).getStored("token_auth_enforced"), undefined);
  });

  it("a running server's HostSettings picks up a change written by another process", () => {
    mock.timers.enable({ apis: ["Date"], now: 1_800_000_000_000 });
    const server = new HostSettings(dataDir);
    assert.equal(server.get("maintenance"), false);
    // What `./occ config:system:set maintenance --value=true` does, from another process.
    new HostSettings(dataDir).set("maintenance", true);
    // The file is checked at most once a second: within that second the cached value stands...
    assert.equal(server.get("maintenance"), false);
    mock.timers.tick(1001);
    // ...and after it the change is seen, without a restart.
    assert.equal(server.get("maintenance"), true);
    new HostSettings(dataDir).delete("maintenance");
    mock.timers.tick(1001);
    assert.equal(server.get("maintenance"), false);
  });

  it("overrides (from the code that builds the server) win over the file", () => {
    new HostSettings(dataDir).set("token_auth_enforced", false);
    assert.equal(new HostSettings(dataDir, { token_auth_enforced: true }).get("token_auth_enforced"), true);
  });

  it("a config.json that is not a JSON object is refused loudly, not ignored", () => {
    fs.writeFileSync(path.join(dataDir, "config.json"), "[1, 2]");
    assert.throws(() => new HostSettings(dataDir).get("maintenance"), /must hold a JSON object/);
    fs.writeFileSync(path.join(dataDir, "config.json"), "{ not json");
    assert.throws(() => new HostSettings(dataDir).get("maintenance"), SyntaxError);
  });

  describe("parsing values from the command line", () => {
    it("booleans", () => {
      for (const text of ["true", "TRUE", "1", "yes", " true "]) {
        assert.deepEqual(parseHostSetting("token_auth_enforced", text), { name: "token_auth_enforced", value: true });
      }
      for (const text of ["false", "0", "no"]) assert.equal(parseHostSetting("maintenance", text).value, false);
      assert.throws(
        () => parseHostSetting("token_auth_enforced", "maybe"),
        /invalid value for token_auth_enforced: expected a boolean/,
      );
      assert.throws(() => parseHostSetting("token_auth_enforced", ""), /expected a boolean/);
    });

    it("the canonical base URL: absolute http(s), no query, fragment or credentials, no trailing slash", () => {
      assert.equal(parseHostSetting("overwrite.cli.url", "https://cloud.example.com/").value, "https://cloud.example.com");
      assert.equal(parseHostSetting("overwrite.cli.url", "http://host:8080/owncloud//").value, "http://host:8080/owncloud");
      assert.equal(parseHostSetting("overwrite.cli.url", "").value, "");
      for (const bad of [
        "cloud.example.com",
        "ftp://cloud.example.com",
        "https://cloud.example.com/?a=1",
        "https://u:p@host/",
        "https://h/#x",
      ]) {
        assert.throws(() => parseHostSetting("overwrite.cli.url", bad), /invalid value for overwrite\.cli\.url/, bad);
      }
    });

    it("integers within their range", () => {
      assert.equal(parseHostSetting("session.lifetime", "3600").value, 3600);
      for (const bad of ["59", "1.5", "abc", "", "99999999999"]) {
        assert.throws(() => parseHostSetting("session.lifetime", bad), /invalid value for session\.lifetime/, bad);
      }
    });

    it("unknown names are refused with the list of known ones", () => {
      assert.throws(
        () => parseHostSetting("no.such.setting", "1"),
        (error: Error) => {
          assert.match(error.message, /unknown setting "no\.such\.setting"/);
          for (const name of Object.keys(hostSettingDefinitions)) assert.ok(error.message.includes(name));
          return true;
        },
      );
    });
  });
});

describe("process environment", () => {
  it("defaults to 127.0.0.1:8080 and <app root>/data", () => {
    const env = readEnvironment({});
    assert.equal(env.host, "127.0.0.1");
    assert.equal(env.port, 8080);
    assert.match(env.dataDir, /\/data$/);
    assert.equal(env.databaseUrl, undefined);
    assert.deepEqual(env.trustedProxies, []);
  });

  it("reads HOST, PORT, KEYSTREAM_DATA_DIR, KEYSTREAM_DATABASE_URL and trusted proxies", () => {
    const env = readEnvironment({
      HOST: "0.0.0.0",
      PORT: "0",
      KEYSTREAM_DATA_DIR: "relative/dir",
      KEYSTREAM_DATABASE_URL: "postgres://u@db/keystream",
      KEYSTREAM_TRUSTED_PROXIES: "10.0.0.1, 10.1.0.0/16,",
    });
    assert.equal(env.host, "0.0.0.0");
    assert.equal(env.port, 0);
    assert.equal(env.dataDir, path.resolve("relative/dir"));
    assert.equal(env.databaseUrl, "postgres://u@db/keystream");
    assert.deepEqual(env.trustedProxies, ["10.0.0.1", "10.1.0.0/16"]);
  });

  it("refuses a malformed PORT", () => {
    for (const port of ["http", "-1", "65536", "80.5"]) assert.throws(() => readEnvironment({ PORT: port }), /PORT must be/);
  });
});
