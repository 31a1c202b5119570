import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, afterEach, before, beforeEach, describe, it, mock } from "node:test";
import { HostSettings, type HostSettingsLog } from "../../src/config/host-settings.js";
import { createTestApp, type TestApp } from "../support/app.js";

/** Issue 18 "configuration read safely" (review F18): config.json is checked on every read. */
describe("config.json validated on every read", () => {
  let dataDir: string;
  let file: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-settings-"));
    file = path.join(dataDir, "config.json");
  });
  afterEach(() => {
    mock.timers.reset();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const firstRead = (content: string) => {
    fs.writeFileSync(file, content);
    try {
      new HostSettings(dataDir).load();
    } catch (error) {
      return (error as Error).message;
    }
    assert.fail("the file was accepted");
  };

  it('"maintenance": "false" is refused as not a boolean, rather than turning maintenance on', () => {
    assert.equal(
      firstRead('{"maintenance": "false"}'),
      `${file}: "maintenance" must be a boolean (true or false), got "false" (a string)`,
    );
  });

  it("a wrong type, a value out of range or a malformed URL is refused naming the file, the key and the expected type", () => {
    assert.equal(
      firstRead('{"session.lifetime": "3600"}'),
      `${file}: "session.lifetime" must be an integer from 60 to 31536000, got "3600" (a string)`,
    );
    assert.match(firstRead('{"session.lifetime": 5}'), /"session\.lifetime" must be an integer from 60 to 31536000, got 5$/);
    assert.match(
      firstRead('{"overwrite.cli.url": "cloud.example.com"}'),
      /"overwrite\.cli\.url" must be an absolute http\(s\) URL/,
    );
    assert.match(firstRead('{"token_auth_enforced": 1}'), /"token_auth_enforced" must be a boolean \(true or false\), got 1$/);
  });

  it("an unknown key in config.json is refused, naming it", () => {
    assert.match(
      firstRead('{"maintenence": true}'),
      new RegExp(`^${file}: unknown key "maintenence" \\(known keys: .*maintenance`),
    );
  });

  it("a JSON syntax error in config.json names the file, the line and the column", () => {
    const message = firstRead('{\n  "maintenance": false,\n}\n');
    assert.match(message, new RegExp(`^${file}: invalid JSON at line 3, column 1`));
  });

  it("a running reader keeps its last good settings when config.json breaks, reports the problem once, and recovers", () => {
    mock.timers.enable({ apis: ["Date"], now: 1_800_000_000_000 });
    const errors: string[] = [];
    const infos: string[] = [];
    const log: HostSettingsLog = {
      error: (_fields, message) => errors.push(message),
      info: (_fields, message) => infos.push(message),
    };
    new HostSettings(dataDir).set("overwrite.cli.url", "https://cloud.example.com");
    const server = new HostSettings(dataDir, {}, log);
    server.load();
    assert.equal(server.problem(), undefined);

    fs.writeFileSync(file, '{"overwrite.cli.url": "https://cloud.example.com", "maintenance": "false"}');
    mock.timers.tick(1001);
    assert.equal(server.get("maintenance"), false, "maintenance stays off");
    assert.equal(server.get("overwrite.cli.url"), "https://cloud.example.com");
    assert.match(server.problem() ?? "", new RegExp(`^${file}: "maintenance" must be a boolean`));
    // Checked every second, logged once for this version of the file.
    mock.timers.tick(1001);
    server.get("maintenance");
    mock.timers.tick(1001);
    server.get("maintenance");
    assert.equal(errors.length, 1);
    assert.match(errors[0] ?? "", /"maintenance" must be a boolean.*the last valid settings stay in force/);
    // A write over the broken file would discard what the operator typed: refused.
    assert.throws(() => server.set("session.lifetime", 3600), /"maintenance" must be a boolean.*fix the file first/);

    fs.writeFileSync(file, "{ broken");
    mock.timers.tick(1001);
    assert.match(server.problem() ?? "", /invalid JSON at line 1, column 3/);
    assert.equal(errors.length, 2, "a new problem is logged once more");

    fs.writeFileSync(file, '{"overwrite.cli.url": "https://new.example.com", "maintenance": true}');
    mock.timers.tick(1001);
    assert.equal(server.problem(), undefined);
    assert.equal(server.get("maintenance"), true);
    assert.equal(server.get("overwrite.cli.url"), "https://new.example.com");
    assert.equal(infos.length, 1);
  });
});

describe("a running server with a config.json broken after start", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    mock.timers.reset();
    await t.close();
  });

  it("keeps serving with its last good settings while status.php says the configuration is not valid, and recovers", async () => {
    mock.timers.enable({ apis: ["Date"], now: 1_800_000_000_000 });
    const settings = t.services.settings;
    settings.set("overwrite.cli.url", "https://cloud.example.com");
    const healthy = await t.app.inject({ method: "GET", url: "/status.php" });
    assert.equal(healthy.statusCode, 200);
    assert.equal(healthy.json().configValid, true);

    fs.writeFileSync(settings.file, '{"overwrite.cli.url": "https://cloud.example.com", "maintenance": "false"}');
    mock.timers.tick(1001);
    const status = await t.app.inject({ method: "GET", url: "/status.php" });
    assert.equal(status.statusCode, 200);
    assert.equal(status.json().maintenance, false);
    assert.equal(status.json().configValid, false);
    assert.match(settings.problem() ?? "", /"maintenance" must be a boolean/);
    // Not in maintenance, not a 500: the login page still answers, and absolute URLs keep the canonical base.
    assert.equal((await t.app.inject({ method: "GET", url: "/index.php/login" })).statusCode, 200);
    const metadata = await t.app.inject({ method: "GET", url: "/.well-known/oauth-authorization-server" });
    assert.equal(metadata.statusCode, 200);
    assert.match(metadata.json().token_endpoint, /^https:\/\/cloud\.example\.com\//);

    fs.writeFileSync(settings.file, '{"overwrite.cli.url": "https://cloud.example.com"}');
    mock.timers.tick(1001);
    assert.equal((await t.app.inject({ method: "GET", url: "/status.php" })).json().configValid, true);
    assert.equal(settings.problem(), undefined);
  });
});
