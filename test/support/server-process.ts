import { type ChildProcess, spawn } from "node:child_process";
import { setTimeout as delay } from "node:timers/promises";
import { assertBuilt, COMPILED_MAIN, childEnvironment, REPO_ROOT } from "./occ.js";
import type { TestStorage } from "./storage.js";

/**
 * `node dist/main.js` as `npm start` runs it, on a free port of 127.0.0.1, on the test's storage,
 * with its output (the JSON log) collected. Used for graceful-shutdown tests and for the nodes of
 * the scale-out test.
 */
export class ServerProcess {
  readonly child: ChildProcess;
  stdout = "";
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private waiters: Array<() => void> = [];

  constructor(
    storage: Pick<TestStorage, "dataDir" | "databaseUrl">,
    readonly name = "server",
    /** More environment variables (e.g. timeouts), over the defaults above. */
    extraEnv: Record<string, string> = {},
    /** The server's entry script: `dist/main.js` of this checkout unless a test installs it elsewhere. */
    script = COMPILED_MAIN,
    /** The whole environment instead (extraEnv ignored): a server configured by its file alone. */
    environment?: NodeJS.ProcessEnv,
    /** Run as this user (a test running as root starts the server as its service account would). */
    user?: { uid: number; gid: number },
  ) {
    assertBuilt();
    this.child = spawn(process.execPath, [script], {
      cwd: REPO_ROOT,
      ...user,
      env: environment ?? childEnvironment(storage, { HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", ...extraEnv }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      this.stdout += chunk;
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr += chunk;
    });
    // "close", not "exit": by then every byte the process wrote has been read.
    this.exited = new Promise((resolve) => this.child.on("close", (code, signal) => resolve({ code, signal })));
    this.exited.then(() => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Waits (at most 20 s) until stdout matches; returns the match. */
  async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const match = pattern.exec(this.stdout);
      if (match) return match;
      if (this.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`${this.name}: output never matched ${pattern}\nstdout: ${this.stdout}\nstderr: ${this.stderr}`);
      }
      await Promise.race([new Promise<void>((resolve) => this.waiters.push(resolve)), delay(500)]);
    }
  }

  /** The base URL it logged (the JSON line whose msg is "Keystream is running at …"). */
  async url(): Promise<string> {
    return (await this.waitFor(/Keystream is running at (http:\/\/127\.0\.0\.1:\d+)\//))[1] ?? "";
  }

  /** The structured log lines with this `msg`. */
  logLines(msg: string): Array<Record<string, unknown>> {
    return this.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === msg);
  }

  /** SIGTERM (graceful shutdown), then the exit status. */
  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGTERM");
    return this.exited;
  }
}
