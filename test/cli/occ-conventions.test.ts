import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { OUTPUT_FORMATS } from "../../src/cli/output.js";
import { runOccInProcess } from "../support/occ.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";
import { commandTree, longOptionsOf, packageRelease, packageVersion, SENTENCE_COMMANDS } from "./support.js";

const EVENT = JSON.stringify({
  app: "files",
  type: "file_created",
  affecteduser: "olga",
  user: "olga",
  subject: "created_self",
  subjectparams: [{ type: "file", value: "/a.txt", id: 1 }],
});

let addedClients = 0;

/** Arguments that make each data command succeed on the test's instance (olga exists), each time it runs. */
const DATA_COMMAND_ARGUMENTS: Record<string, string[] | (() => string[])> = {
  list: [],
  status: [],
  migrate: [],
  "user:list": [],
  "user:info": ["olga"],
  "user:add-app-password": ["olga"],
  "user:setting": ["olga"],
  "group:list": [],
  "group:list-members": ["admin"],
  "config:list": [],
  "config:system:get": ["activity_expire_days", "--default-value=365"],
  "maintenance:mode": [],
  "oauth2:list-clients": [],
  "oauth2:cleanup": [],
  "oidc:rotate-key": [],
  "activity:publish": ["--json", EVENT],
  "activity:expire": [],
  // An empty log: nothing to publish, the counts still print.
  "activity:import-file-log": ["/dev/null"],
  "oauth2:add-client": () => {
    const id = `conventions-client-${++addedClients}`.padEnd(32, "x");
    return [`Client ${addedClients}`, id, "s".repeat(32), "https://app.example.com/cb"];
  },
  "security:bruteforce:attempts": ["192.0.2.1"],
  "security:audit": [],
  "twofactorauth:state": ["olga"],
};

describe("./occ's conventions (in-process, on the test's storage)", () => {
  let storage: TestStorage;
  const occ = (...argv: string[]) => runOccInProcess(argv, storage);

  before(async () => {
    storage = await createTestStorage();
    const added = await occ("user:add", "olga", "--display-name=Olga O");
    assert.equal(added.code, 0, added.err);
  });
  after(() => storage.cleanup());

  it("a usage error exits 2 and points to the help that answers it", async () => {
    const cases: Array<[string[], RegExp, RegExp]> = [
      [["user:frobnicate"], /unknown command 'user:frobnicate'/, /run \.\/occ list /],
      [["user:add", "zed", "--frob"], /unknown option '--frob'/, /run \.\/occ user:add --help/],
      [["user:add"], /missing required argument 'uid'/, /run \.\/occ user:add --help/],
      [
        ["config:system:set", "maintenance"],
        /required option '--value <value>' not specified/,
        /\.\/occ config:system:set --help/,
      ],
      [["user:list", "--output=xml"], /argument 'xml' is invalid/, /run \.\/occ user:list --help/],
      [["maintenance:mode", "--on", "--off"], /cannot be used with/, /run \.\/occ maintenance:mode --help/],
      [["completion", "zsh"], /value 'zsh' is invalid/, /run \.\/occ completion --help/],
      [["--frob"], /unknown option '--frob'/, /run \.\/occ list /],
      // Help for a command that does not exist is that command's usage error, not the global help.
      [["frob", "--help"], /unknown command 'frob'/, /run \.\/occ list /],
      [["-h", "frob"], /unknown command 'frob'/, /run \.\/occ list /],
      [["help", "frob"], /unknown command 'frob'/, /run \.\/occ list /],
      [["user:ad", "--help"], /unknown command 'user:ad'\n\(Did you mean user:add\?\)/, /run \.\/occ list /],
    ];
    for (const [argv, message, hint] of cases) {
      const result = await occ(...argv);
      assert.equal(result.code, 2, `${argv.join(" ")}: ${result.err}`);
      assert.match(result.err, message, argv.join(" "));
      assert.match(result.err, hint, argv.join(" "));
      assert.equal(result.out, "", argv.join(" "));
    }
  });

  it("an unknown option given with its value still gets its did-you-mean", async () => {
    const result = await occ("user:add", "carol", "--displayname=Carol");
    assert.equal(result.code, 2);
    assert.match(result.err, /unknown option '--displayname'\n\(Did you mean --display-name\?\)/);
  });

  it("a refused command exits 1 with one line on stderr; a successful one exits 0", async () => {
    for (const argv of [
      ["user:delete", "nobody"],
      ["config:system:get", "no.such"],
      ["config:system:get", "overwrite.cli.url"],
      ["oauth2:remove-client", "no-such-client"],
    ]) {
      const result = await occ(...argv);
      assert.equal(result.code, 1, argv.join(" "));
      assert.equal(result.err.trimEnd().split("\n").length, 1, result.err);
      assert.equal(result.out, "");
    }
    assert.equal((await occ("user:list")).code, 0);
  });

  it("every command that prints data takes the one --output option, and its JSON forms parse", async () => {
    const program = commandTree();
    for (const command of program.commands) {
      const name = command.name();
      if (SENTENCE_COMMANDS.has(name)) continue;
      const output = command.options.find((option) => option.long === "--output");
      assert.ok(output, `${name} prints data but has no --output (or belongs in SENTENCE_COMMANDS)`);
      assert.deepEqual(output.argChoices, [...OUTPUT_FORMATS], name);
      assert.equal(output.defaultValue, "plain", name);
      const given = DATA_COMMAND_ARGUMENTS[name];
      assert.ok(given, `test/cli/occ-conventions.test.ts: give ${name} arguments in DATA_COMMAND_ARGUMENTS`);
      const args = () => (typeof given === "function" ? given() : given);
      for (const format of ["json", "json_pretty"]) {
        const result = await occ(name, ...args(), `--output=${format}`);
        assert.equal(result.code, 0, `${name} --output=${format}: ${result.err}`);
        assert.doesNotThrow(() => JSON.parse(result.out), `${name} --output=${format}: ${result.out}`);
        if (format === "json") assert.equal(result.out.trimEnd().split("\n").length, 1, `${name}: one line`);
      }
      const plain = await occ(name, ...args());
      assert.equal(plain.code, 0, `${name}: ${plain.err}`);
    }
  });

  it("./occ alone and ./occ list print every command, grouped by namespace, on stdout with exit 0", async () => {
    const names = commandTree().commands.map((command) => command.name());
    for (const argv of [[], ["list"]]) {
      const result = await occ(...argv);
      assert.equal(result.code, 0, result.err);
      assert.equal(result.err, "");
      for (const name of [...names, "help"]) assert.match(result.out, new RegExp(`^ {2}${name} `, "m"), name);
      assert.match(result.out, /^ user\n(?: {2}user:\S+ .*\n)+/m);
      assert.match(result.out, /^ oauth2\n {2}oauth2:add-client /m);
      assert.ok(result.out.startsWith(`Keystream ${packageRelease()}\n`));
    }
    const json = JSON.parse((await occ("list", "--output=json")).out);
    assert.deepEqual(json.commands.map((c: { name: string }) => c.name).sort(), [...names, "help"].sort());
  });

  it("--version and -V print the Keystream version (and the commit of a git checkout) on stdout and exit 0", async () => {
    for (const flag of ["--version", "-V"]) {
      const result = await occ(flag);
      assert.equal(result.code, 0);
      assert.equal(result.out, `Keystream ${packageRelease()}\n`);
    }
  });

  it("oauth2:add-client says which client it added (name and client id), in plain or JSON", async () => {
    const id = "added-client-said-".padEnd(32, "0");
    const added = await occ("oauth2:add-client", "Gitea", id, "s".repeat(32), "https://git.example.com/cb");
    assert.equal(added.code, 0, added.err);
    assert.equal(added.out, `The client "Gitea" was added successfully, client id ${id}\n`);
    const id2 = "added-client-json-".padEnd(32, "0");
    const json = await occ(
      "oauth2:add-client",
      "Grafana",
      id2,
      "s".repeat(32),
      "https://grafana.example.com/cb",
      "--output=json",
    );
    assert.equal(json.code, 0, json.err);
    assert.equal(json.out, `{"name":"Grafana","client-id":"${id2}"}\n`);
    const again = await occ("oauth2:add-client", "Gitea", id, "s".repeat(32), "https://git.example.com/cb");
    assert.equal(again.code, 1, "a refused add keeps its exit code");
    assert.equal(again.out, "");
  });

  it("every help screen fits 80 columns", async () => {
    const program = commandTree();
    const screens = [["--help"], ["list"], ...program.commands.map((command) => [command.name(), "--help"])];
    for (const argv of screens) {
      const result = await occ(...argv);
      assert.equal(result.code, 0, argv.join(" "));
      assert.ok(result.out.length > 0, argv.join(" "));
      for (const line of result.out.split("\n")) {
        assert.ok(line.length <= 80, `${argv.join(" ")}: ${line.length} columns: ${line}`);
      }
    }
  });

  it("status reports version, data directory, database without password, users and maintenance", async () => {
    await occ("user:add", "pia");
    const result = await occ("status", "--output=json");
    assert.equal(result.code, 0, result.err);
    const status = JSON.parse(result.out);
    assert.equal(status.installed, true);
    assert.equal(status.version, packageVersion());
    assert.equal(`${status.version}${status.commit ? ` (commit ${status.commit.slice(0, 12)})` : ""}`, packageRelease());
    assert.equal(status.database_reachable, true);
    assert.equal(status.data_directory, storage.dataDir);
    assert.equal(status.database, storage.storage.dialect);
    assert.equal(status.database_location, storage.storage.describe.replace(/^sqlite:/, ""));
    assert.equal(status.users, (await storage.storage.db.selectFrom("users").select("uid").execute()).length);
    assert.equal(status.maintenance, false);
    assert.deepEqual(status.pending_migrations, []);
    const plain = await occ("status");
    assert.match(plain.out, new RegExp(`^ {2}- version: ${packageVersion().replace(/\./g, "\\.")}$`, "m"));
  });

  it("status shows the database location without its password", async () => {
    const url = storage.databaseUrl;
    if (url === undefined) {
      assert.doesNotMatch((await occ("status")).out, /:\/\/[^/\s]*:[^/\s]*@/);
      return;
    }
    // The test cluster trusts local connections, so a password in the URL is accepted and ignored.
    const withPassword = new URL(url);
    withPassword.password = "hunter2-sentinel";
    const result = await runOccInProcess(["status", "--output=json"], { ...storage, databaseUrl: withPassword.toString() });
    assert.equal(result.code, 0, result.err);
    assert.ok(!result.out.includes("hunter2-sentinel"), result.out);
    assert.match(JSON.parse(result.out).database_location, /^postgres:\/\/127\.0\.0\.1:\d+\/ks_test_/);
  });

  it("config:list shows every effective host setting and marks the defaults", async () => {
    assert.equal((await occ("config:system:set", "activity_expire_days", "--value=30")).code, 0);
    const plain = await occ("config:list");
    assert.equal(plain.code, 0, plain.err);
    assert.match(plain.out, /^ {2}- activity_expire_days: 30$/m);
    assert.match(plain.out, /^ {2}- session\.lifetime: 86400 \(default\)$/m);
    const json = JSON.parse((await occ("config:list", "system", "--output=json")).out);
    assert.equal(json.system.activity_expire_days, 30);
    assert.equal(json.system["session.lifetime"], 86_400);
    assert.ok(json.defaults.includes("session.lifetime"));
    assert.ok(!json.defaults.includes("activity_expire_days"));
    assert.equal((await occ("config:list", "app")).code, 2, "only the system configuration exists");
    assert.equal((await occ("config:system:delete", "activity_expire_days")).code, 0);
  });

  it("config:system:get of an unset setting exits 1 naming its default; --default-value prints a fallback", async () => {
    const unset = await occ("config:system:get", "activity_expire_days");
    assert.equal(unset.code, 1);
    assert.equal(unset.out, "");
    assert.match(unset.err, /activity_expire_days is not set \(its default, 365, applies\)/);
    const fallback = await occ("config:system:get", "activity_expire_days", "--default-value=99");
    assert.equal(fallback.code, 0, fallback.err);
    assert.equal(fallback.out, "99\n");
  });

  it("maintenance:mode shows the state without an option and turns it on and off like ownCloud's", async () => {
    assert.deepEqual(await occ("maintenance:mode"), { code: 0, out: "Maintenance mode is currently disabled\n", err: "" });
    assert.equal((await occ("maintenance:mode", "--on")).out, "Maintenance mode enabled\n");
    const config = JSON.parse(fs.readFileSync(path.join(storage.dataDir, "config.json"), "utf8"));
    assert.equal(config.maintenance, true);
    assert.equal((await occ("maintenance:mode")).out, "Maintenance mode is currently enabled\n");
    assert.deepEqual(JSON.parse((await occ("maintenance:mode", "--output=json")).out), { maintenance: true });
    assert.equal((await occ("maintenance:mode", "--off")).out, "Maintenance mode disabled\n");
    assert.equal((await occ("config:system:get", "maintenance")).out, "false\n");
  });

  it("completion bash lists every command and its long options, and bash accepts the script", async () => {
    const result = await occ("completion", "bash");
    assert.equal(result.code, 0, result.err);
    const script = result.out;
    for (const command of commandTree().commands) {
      assert.match(script, new RegExp(`[" ]${command.name()}[" ]`), command.name());
      const line = script.split("\n").find((l) => l.trim().startsWith(`${command.name()})`));
      assert.ok(line, `a case for ${command.name()}`);
      for (const option of longOptionsOf(command)) assert.ok(line.includes(option), `${command.name()} ${option}`);
    }
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "keystream-completion-")), "occ.bash");
    fs.writeFileSync(file, script);
    execFileSync("bash", ["-n", file]);
    // What bash offers after `occ user:a<TAB>` and `occ user:add --d<TAB>` (words split at ':').
    const complete = (line: string) =>
      execFileSync(
        "bash",
        [
          "-c",
          `source "$1"; COMP_LINE="$2"; COMP_POINT=\${#COMP_LINE}; _keystream_occ; printf '%s\\n' "\${COMPREPLY[@]}"`,
          "-",
          file,
          line,
        ],
        {
          encoding: "utf8",
        },
      )
        .trim()
        .split("\n");
    assert.deepEqual(complete("occ user:a"), ["add", "add-app-password"]);
    assert.deepEqual(complete("occ user:add --d"), ["--display-name"]);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});
