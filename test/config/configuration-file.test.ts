import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { defaultConfigFile, processSettingDefinitions, readEnvironment } from "../../src/config/environment.js";
import { DEFAULT_SERVER_TIMEOUTS } from "../../src/config/timeouts.js";

/** Issue 18 "one configuration" and "configuration read safely": the process configuration file. */
describe("the configuration file (keystream.json) and the environment over it", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-config-"));
    file = path.join(dir, "keystream.json");
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (content: unknown) => fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  const refusal = (env: NodeJS.ProcessEnv, options = {}) => {
    try {
      readEnvironment(env, options);
    } catch (error) {
      return (error as Error).message;
    }
    assert.fail("the configuration was accepted");
  };

  it("says where each setting came from, and which the environment gives another value than the file", () => {
    write({ port: 18480, host: "127.0.0.1", log_level: "warn" });
    const environment = readEnvironment({ KEYSTREAM_CONFIG: file, PORT: "8080", HOST: "127.0.0.1" });
    assert.equal(environment.port, 8080);
    assert.equal(environment.sources?.port, "environment PORT");
    assert.equal(environment.sources?.host, "environment HOST");
    assert.equal(environment.sources?.log_level, "file");
    assert.equal(environment.sources?.metrics_port, "default");
    assert.deepEqual(environment.shadowed, [{ key: "port", variable: "PORT", fileValue: 18480, environmentValue: 8080 }]);
  });

  it("the file holds every process setting the environment holds, and the environment overrides it key by key", () => {
    write({
      host: "0.0.0.0",
      port: 9000,
      data_dir: "instance",
      database_url: "postgres://keystream@db.example/keystream",
      trusted_proxies: ["10.0.0.1", "10.1.0.0/16"],
      log_level: "warn",
      request_timeout_seconds: 30,
      shutdown_grace_seconds: 2.5,
      db_statement_timeout_ms: 900,
    });
    const fromFile = readEnvironment({ KEYSTREAM_CONFIG: file });
    assert.equal(fromFile.host, "0.0.0.0");
    assert.equal(fromFile.port, 9000);
    // A relative data_dir is relative to the file's directory, whatever the working directory.
    assert.equal(fromFile.dataDir, path.join(dir, "instance"));
    assert.equal(fromFile.databaseUrl, "postgres://keystream@db.example/keystream");
    assert.deepEqual(fromFile.trustedProxies, ["10.0.0.1", "10.1.0.0/16"]);
    assert.equal(fromFile.logLevel, "warn");
    assert.deepEqual(fromFile.timeouts, { ...DEFAULT_SERVER_TIMEOUTS, requestMs: 30_000, shutdownGraceMs: 2500 });
    assert.equal(fromFile.database?.statementTimeoutMs, 900);
    assert.deepEqual(fromFile.configFile, { path: file, read: true });

    const overridden = readEnvironment({
      KEYSTREAM_CONFIG: file,
      PORT: "9100",
      LOG_LEVEL: "debug",
      KEYSTREAM_DATA_DIR: "/srv/other",
    });
    assert.equal(overridden.port, 9100);
    assert.equal(overridden.logLevel, "debug");
    assert.equal(overridden.dataDir, "/srv/other");
    // Keys the environment does not set keep the file's values.
    assert.equal(overridden.host, "0.0.0.0");
    assert.equal(overridden.databaseUrl, "postgres://keystream@db.example/keystream");
  });

  it("without KEYSTREAM_CONFIG the file is <app root>/config/keystream.json; a missing default file means defaults", () => {
    const appRoot = dir;
    assert.equal(defaultConfigFile(appRoot), path.join(appRoot, "config", "keystream.json"));
    const none = readEnvironment({}, { appRoot });
    assert.deepEqual(none.configFile, { path: path.join(appRoot, "config", "keystream.json"), read: false });
    assert.equal(none.dataDir, path.join(appRoot, "data"));
    fs.mkdirSync(path.join(appRoot, "config"));
    fs.writeFileSync(
      path.join(appRoot, "config", "keystream.json"),
      JSON.stringify({ data_dir: "/var/lib/keystream", port: 8181 }),
    );
    const read = readEnvironment({}, { appRoot });
    assert.equal(read.dataDir, "/var/lib/keystream");
    assert.equal(read.port, 8181);
    assert.equal(read.configFile?.read, true);
  });

  it("a release's config/keystream.json linked to a file kept outside the releases: a relative data_dir follows the real file", () => {
    const etc = path.join(dir, "etc");
    fs.mkdirSync(etc);
    fs.writeFileSync(path.join(etc, "keystream.json"), JSON.stringify({ data_dir: "../var" }));
    const release = path.join(dir, "releases", "2");
    fs.mkdirSync(path.join(release, "config"), { recursive: true });
    fs.symlinkSync(path.join(etc, "keystream.json"), path.join(release, "config", "keystream.json"));
    const read = readEnvironment({}, { appRoot: release });
    assert.equal(read.configFile?.read, true);
    assert.equal(read.dataDir, path.join(dir, "var"));
  });

  it("a file named by KEYSTREAM_CONFIG that does not exist refuses to start, naming it", () => {
    assert.match(refusal({ KEYSTREAM_CONFIG: file }), new RegExp(`KEYSTREAM_CONFIG names ${file}, which does not exist`));
  });

  it("a wrong type in the file is refused naming the file, the key and the expected type", () => {
    write({ port: "8080" });
    assert.equal(
      refusal({ KEYSTREAM_CONFIG: file }),
      `${file}: "port" must be an integer from 0 to 65535, got "8080" (a string)`,
    );
    write({ trusted_proxies: "10.0.0.1" });
    assert.match(refusal({ KEYSTREAM_CONFIG: file }), /"trusted_proxies" must be a list of strings/);
    write({ log_level: "verbose" });
    assert.match(
      refusal({ KEYSTREAM_CONFIG: file }),
      /"log_level" must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"/,
    );
    write({ request_timeout_seconds: 0 });
    assert.match(refusal({ KEYSTREAM_CONFIG: file }), /"request_timeout_seconds" must be a number of seconds greater than 0/);
  });

  it("an unknown key in the file is refused, naming it and the known keys", () => {
    write({ data_directory: "/srv" });
    const message = refusal({ KEYSTREAM_CONFIG: file });
    assert.match(message, new RegExp(`^${file}: unknown key "data_directory" \\(known keys: `));
    for (const key of Object.keys(processSettingDefinitions)) assert.ok(message.includes(key), key);
  });

  it("a JSON syntax error is refused naming the file, the line and the column", () => {
    write('{\n  "port": 8080,\n  host: "0.0.0.0"\n}\n');
    assert.match(refusal({ KEYSTREAM_CONFIG: file }), new RegExp(`^${file}: invalid JSON at line 3, column 3`));
    write("[1, 2]");
    assert.match(refusal({ KEYSTREAM_CONFIG: file }), /must hold a JSON object/);
  });

  it("LOG_LEVEL=verbose and other bad variables refuse to start, naming the variable and the allowed values", () => {
    assert.equal(
      refusal({ LOG_LEVEL: "verbose" }),
      'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"',
    );
    assert.equal(refusal({ PORT: "80.5" }), 'PORT must be an integer from 0 to 65535, got "80.5"');
    assert.match(
      refusal({ KEYSTREAM_SHUTDOWN_GRACE_SECONDS: "soon" }),
      /^KEYSTREAM_SHUTDOWN_GRACE_SECONDS must be a number of seconds/,
    );
    // A bad variable is refused even when the file is fine, and every problem is named at once.
    write({ port: 8080 });
    const both = refusal({ KEYSTREAM_CONFIG: file, PORT: "x", LOG_LEVEL: "loud" });
    assert.match(both, /PORT must be an integer/);
    assert.match(both, /LOG_LEVEL must be one of/);
  });

  it("database secrets can come from files (*_FILE), the password kept out of the URL", () => {
    const passwordFile = path.join(dir, "db-password");
    fs.writeFileSync(passwordFile, "s3cr/t:@\n");
    write({ database_url: "postgres://keystream@db.example:5432/keystream", database_password_file: passwordFile });
    const url = new URL(readEnvironment({ KEYSTREAM_CONFIG: file }).databaseUrl ?? "");
    assert.equal(decodeURIComponent(url.password), "s3cr/t:@");
    assert.equal(url.username, "keystream");
    const urlFile = path.join(dir, "db-url");
    fs.writeFileSync(urlFile, "postgres://u:p@db/k\n");
    assert.equal(readEnvironment({ KEYSTREAM_DATABASE_URL_FILE: urlFile }).databaseUrl, "postgres://u:p@db/k");
    assert.match(
      refusal({ KEYSTREAM_DATABASE_URL_FILE: urlFile, KEYSTREAM_DATABASE_URL: "postgres://x@y/z" }),
      /database_url or database_url_file/,
    );
    assert.match(refusal({ KEYSTREAM_DATABASE_PASSWORD_FILE: path.join(dir, "missing") }), /database_password_file/);
  });
});
