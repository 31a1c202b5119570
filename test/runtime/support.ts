import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import { setTimeout as delay } from "node:timers/promises";

/** The parts of `semver` these tests use. It is in the production tree through fastify (no types). */
interface Semver {
  subset(sub: string, dom: string): boolean;
  satisfies(version: string, range: string): boolean;
}
export const semver = createRequire(import.meta.url)("semver") as Semver;

export interface PackageJson {
  name?: string;
  version?: string;
  engines?: { node?: string };
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, "utf8")) as T;
}

/** `/proc/<pid>/stat` fields after the command name: state, then the parent's pid. */
function statOf(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state = "", ppid = "0"] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** Every process below `pid` (children, their children, …), from /proc. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (!stat) continue;
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Alive: it exists and is not a zombie waiting to be reaped. */
export function isAlive(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== "Z";
}

export function commandLineOf(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/** Resolves true when something accepts a TCP connection at the URL's host and port. */
export function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * A long-running command (`npm start`), its output collected, started the way a supervisor
 * starts its one process: in a session of its own, so that only a signal sent to its PID reaches it.
 */
export class SupervisedCommand {
  readonly child: ChildProcess;
  stdout = "";
  stderr = "";
  /** The command's own exit status (not its output's end: a process it left behind may hold that open). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly closed: Promise<void>;

  constructor(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
    this.child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    this.child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      this.stdout += chunk;
    });
    this.child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => this.child.on("exit", (code, signal) => resolve({ code, signal })));
    this.closed = new Promise((resolve) => this.child.on("close", () => resolve()));
  }

  /**
   * Its exit status, once everything written to its stdout and stderr has been read, or (at most
   * 10 s after the exit) while an orphan it left behind still holds them open.
   */
  async finished(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const status = await this.exited;
    await Promise.race([this.closed, delay(10_000)]);
    return status;
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error("the command did not start");
    return this.child.pid;
  }

  /** Waits (at most 60 s: `npm start` on a loaded machine) until stdout matches; returns the match. */
  async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const match = pattern.exec(this.stdout);
      if (match) return match;
      if (this.child.exitCode !== null || this.child.signalCode !== null || Date.now() > deadline) {
        throw new Error(`output never matched ${pattern}\nstdout: ${this.stdout}\nstderr: ${this.stderr}`);
      }
      await delay(100);
    }
  }
}
