import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it, type TestContext } from "node:test";
import { DEFAULT_SERVER_TIMEOUTS } from "../../src/config/timeouts.js";
import { REPO_ROOT, runProcess } from "../support/occ.js";

/**
 * deploy/systemd/keystream.service: checked by systemd's own parser (`systemd-analyze verify`),
 * and its stop timeout and hardening asserted, so that an edit cannot silently drop them.
 */
const UNIT = path.join(REPO_ROOT, "deploy", "systemd", "keystream.service");
const ENVIRONMENT_EXAMPLE = path.join(REPO_ROOT, "deploy", "systemd", "keystream.env.example");

/** `Key=value` lines of a unit or environment file; a key may repeat. */
function settingsOf(file: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const match = /^([A-Za-z_]+)=(.*)$/.exec(line.trim());
    if (!match) continue;
    const [, key = "", value = ""] = match;
    settings.set(key, [...(settings.get(key) ?? []), value]);
  }
  return settings;
}

function findExecutable(name: string): string | undefined {
  for (const directory of (process.env.PATH ?? "").split(path.delimiter).concat(["/usr/bin", "/bin"])) {
    const candidate = path.join(directory, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

/** "45", "45s", "1min 30s" → seconds (the forms systemd.time(7) allows that a unit would use here). */
function seconds(span: string): number {
  let total = 0;
  for (const [, amount = "0", unit = "s"] of span.matchAll(/(\d+)\s*(min|s)?/g))
    total += Number(amount) * (unit === "min" ? 60 : 1);
  return total;
}

/** systemd-analyze, or a skip outside CI (CI installs systemd: there a missing tool fails). */
function systemdAnalyze(t: TestContext): string | undefined {
  const analyze = findExecutable("systemd-analyze");
  if (analyze) return analyze;
  const inCi = process.env.CI === "true" || process.env.CI === "1";
  assert.ok(!inCi, "systemd-analyze is missing (Debian package systemd)");
  t.skip("systemd-analyze is not installed");
  return undefined;
}

/** Runs `systemd-analyze <args> <copy of the unit>`; the copy's ExecStart names this Node (verify checks it exists). */
async function analyzeUnit(analyze: string, args: string[]) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-unit-"));
  try {
    const copy = path.join(directory, "keystream.service");
    const text = fs.readFileSync(UNIT, "utf8");
    assert.match(text, /^ExecStart=\/usr\/bin\/node /m);
    fs.writeFileSync(copy, text.replace(/^ExecStart=\/usr\/bin\/node /m, `ExecStart=${process.execPath} `));
    return await runProcess(analyze, [...args, copy], { ...process.env, SYSTEMD_LOG_COLOR: "0", SYSTEMD_COLORS: "0" });
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

describe("the systemd unit (deploy/systemd/keystream.service)", () => {
  it("passes systemd-analyze verify without a warning", async (t) => {
    const analyze = systemdAnalyze(t);
    if (!analyze) return;
    const result = await analyzeUnit(analyze, ["verify", "--man=no"]);
    assert.equal(result.code, 0, result.stderr);
    // Unknown keys, keys in the wrong section, bad values: printed, yet exit status 0.
    assert.equal(result.stderr.trim(), "", "systemd-analyze has no remark");
  });

  it("systemd-analyze security rates its exposure OK (at most 2.0 of 10)", async (t) => {
    const analyze = systemdAnalyze(t);
    if (!analyze) return;
    // --threshold is on a 0–100 scale: exit 1 above 20, i.e. an exposure level above 2.0.
    const result = await analyzeUnit(analyze, ["security", "--offline=yes", "--man=no", "--threshold=20"]);
    assert.equal(
      result.code,
      0,
      `${result.stdout
        .split("\n")
        .filter((line) => line.includes("exposure"))
        .join("\n")}\n${result.stderr}`,
    );
  });

  it("runs the built server as an unprivileged user and restarts it on failure", () => {
    const unit = settingsOf(UNIT);
    const expected: Record<string, string> = {
      Type: "simple",
      User: "keystream",
      WorkingDirectory: "/opt/keystream/current",
      ExecStart: "/usr/bin/node /opt/keystream/current/dist/main.js",
      Restart: "on-failure",
      KillSignal: "SIGTERM",
      UMask: "0077",
    };
    for (const [key, value] of Object.entries(expected)) assert.deepEqual(unit.get(key), [value], key);
  });

  it("gives the graceful shutdown more time than its grace period before SIGKILL", () => {
    const unit = settingsOf(UNIT);
    const stopTimeout = seconds(unit.get("TimeoutStopSec")?.[0] ?? "90");
    const defaultGrace = DEFAULT_SERVER_TIMEOUTS.shutdownGraceMs / 1000;
    const exampleGrace = Number(settingsOf(ENVIRONMENT_EXAMPLE).get("KEYSTREAM_SHUTDOWN_GRACE_SECONDS")?.[0] ?? defaultGrace);
    assert.ok(stopTimeout > defaultGrace, `TimeoutStopSec ${stopTimeout} s > default grace ${defaultGrace} s`);
    assert.ok(stopTimeout > exampleGrace, `TimeoutStopSec ${stopTimeout} s > example grace ${exampleGrace} s`);
  });

  it("writes only to the data directory and keeps the hardening options", () => {
    const unit = settingsOf(UNIT);
    const dataDir = (unit.get("Environment") ?? []).find((value) => value.startsWith("KEYSTREAM_DATA_DIR="))?.split("=")[1];
    assert.equal(dataDir, "/var/lib/keystream");
    assert.deepEqual(unit.get("ReadWritePaths"), [dataDir]);
    const hardening: Record<string, string> = {
      NoNewPrivileges: "yes",
      ProtectSystem: "strict",
      ProtectHome: "yes",
      PrivateTmp: "yes",
      PrivateDevices: "yes",
      ProtectKernelTunables: "yes",
      ProtectKernelModules: "yes",
      ProtectKernelLogs: "yes",
      ProtectControlGroups: "yes",
      RestrictAddressFamilies: "AF_UNIX AF_INET AF_INET6",
      RestrictNamespaces: "yes",
      RestrictSUIDSGID: "yes",
      LockPersonality: "yes",
      CapabilityBoundingSet: "",
      SystemCallArchitectures: "native",
      // Refused calls fail with EPERM (libuv falls back) instead of killing the process.
      SystemCallErrorNumber: "EPERM",
    };
    for (const [key, value] of Object.entries(hardening)) assert.deepEqual(unit.get(key), [value], key);
    assert.ok(unit.get("SystemCallFilter")?.includes("@system-service"), "SystemCallFilter=@system-service");
    // V8's JIT needs memory that is written, then executed: Node aborts under this option.
    assert.equal(unit.has("MemoryDenyWriteExecute"), false, "MemoryDenyWriteExecute stays out");
  });
});
