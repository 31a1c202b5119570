import { spawn } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { CommandContext } from "../../src/cli/context.js";
import { runOcc as runOccCommand } from "../../src/cli/occ.js";
import { DEFAULT_SERVER_TIMEOUTS } from "../../src/config/timeouts.js";
import type { TestStorage } from "./storage.js";

/** The repository root, where `./occ` and `dist/` live. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const OCC = `${REPO_ROOT}occ`;
export const COMPILED_OCC = `${REPO_ROOT}dist/cli/occ.js`;
export const COMPILED_MAIN = `${REPO_ROOT}dist/main.js`;

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment a child process (./occ, a server) needs to use the test's storage: its data
 * directory and, on PostgreSQL, its database. Nothing inherited may point elsewhere.
 */
export function childEnvironment(storage: Pick<TestStorage, "dataDir" | "databaseUrl">, extra: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, KEYSTREAM_DATA_DIR: storage.dataDir, LOG_LEVEL: "warn" };
  delete env.KEYSTREAM_DATABASE_URL;
  delete env.OC_PASS;
  delete env.NODE_OPTIONS;
  if (storage.databaseUrl) env.KEYSTREAM_DATABASE_URL = storage.databaseUrl;
  Object.assign(env, extra);
  return env;
}

/** `npm test` builds before it tests; a test run on its own needs `npm run build` first. */
export function assertBuilt(): void {
  if (!fs.existsSync(COMPILED_OCC) || !fs.existsSync(COMPILED_MAIN)) {
    throw new Error("dist/ is missing: run `npm run build` first (npm test does it before the tests)");
  }
}

/** Runs the real `./occ` executable from the repository root, as an operator would. */
export function runOcc(
  args: string[],
  storage: Pick<TestStorage, "dataDir" | "databaseUrl">,
  extraEnv: Record<string, string> = {},
  /** Piped to the command's standard input (closed at once when absent). */
  input?: string,
): Promise<ProcessResult> {
  assertBuilt();
  return runProcess(OCC, args, childEnvironment(storage, extraEnv), input);
}

/** Runs an executable (an `occ` at another path, `node …`) to its end, from the repository root. */
export function runProcess(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
  cwd = REPO_ROOT,
  /** Run as this user (a test running as root runs occ as a service account would). */
  user?: { uid: number; gid: number },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd,
      env,
      ...user,
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (input !== undefined) child.stdin?.end(input);
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * Runs an occ command in-process on the test's storage (fast; the real executable is covered by
 * test/cli), capturing what it prints on stdout and stderr.
 */
export async function runOccInProcess(
  argv: string[],
  storage: Pick<TestStorage, "dataDir" | "databaseUrl">,
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => {
    err += chunk;
    return true;
  }) as typeof process.stderr.write;
  try {
    const context = new CommandContext(
      (text) => {
        out += text;
      },
      {
        host: "127.0.0.1",
        port: 0,
        dataDir: storage.dataDir,
        databaseUrl: storage.databaseUrl,
        logLevel: "silent",
        trustedProxies: [],
        timeouts: DEFAULT_SERVER_TIMEOUTS,
      },
    );
    const code = await runOccCommand(argv, context);
    return { code, out, err };
  } finally {
    process.stderr.write = write;
  }
}
