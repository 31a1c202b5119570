import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";

/**
 * Every process the client test starts goes through here: each is spawned as the leader of its
 * own process group, its PID is recorded, and `stopAll` ends exactly those groups (SIGTERM, then
 * SIGKILL), newest first. Nothing is ever killed by name.
 */
export interface Started {
  name: string;
  pid: number;
  child: ChildProcess;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<number | string>;
  isRunning(): boolean;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** stdout and stderr are appended to this file. */
  logFile: string;
  /** Written to stdin, which is then closed (stdin is /dev/null otherwise). */
  stdin?: string;
  /** Extra file descriptors: e.g. fd 3 as a pipe (Xvfb -displayfd 3). */
  extraPipe?: boolean;
}

export class ProcessSet {
  private readonly started: Started[] = [];

  start(name: string, command: string, args: string[], options: StartOptions): Started {
    const out = fs.openSync(options.logFile, "a");
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true, // own process group: the group id is this PID
      stdio: [options.stdin === undefined ? "ignore" : "pipe", out, out, ...(options.extraPipe ? ["pipe" as const] : [])],
    });
    fs.closeSync(out);
    if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`);
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    let running = true;
    const exited = new Promise<number | string>((resolve) => {
      child.once("exit", (code, signal) => {
        running = false;
        resolve(code ?? signal ?? "unknown");
      });
      child.once("error", (error) => {
        running = false;
        resolve(`error: ${error.message}`);
      });
    });
    const entry: Started = { name, pid: child.pid, child, exited, isRunning: () => running };
    this.started.push(entry);
    return entry;
  }

  /** Ends one started process group: SIGTERM, then SIGKILL after `graceMs`. */
  async stop(entry: Started, graceMs = 3000): Promise<void> {
    if (!entry.isRunning()) {
      killGroup(entry.pid, "SIGKILL"); // leftovers of the group (e.g. a daemon's children)
      return;
    }
    killGroup(entry.pid, "SIGTERM");
    const done = await Promise.race([entry.exited.then(() => true), delay(graceMs).then(() => false)]);
    killGroup(entry.pid, "SIGKILL");
    if (!done) await Promise.race([entry.exited, delay(2000)]);
  }

  async stopAll(): Promise<void> {
    for (const entry of [...this.started].reverse()) await this.stop(entry);
  }

  /** For a signal handler: SIGKILL every started group at once (no waiting). */
  killAllNow(): void {
    for (const entry of this.started) killGroup(entry.pid, "SIGKILL");
  }

  describe(): string {
    return this.started.map((s) => `${s.name}=${s.pid}${s.isRunning() ? "" : " (exited)"}`).join(", ");
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns a value (not undefined/false) or the timeout passes. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await delay(everyMs);
  }
}

/** A free TCP port on 127.0.0.1 (asked from the kernel, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a command to completion; throws with its output when it fails. */
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
): string {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    input: options.input,
    encoding: "utf8",
    timeout: 60_000,
  });
  if (result.error) throw new Error(`${command} ${args.join(" ")}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.status ?? result.signal}: ${result.stderr || result.stdout}`);
  }
  return result.stdout;
}

export function readIfExists(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
