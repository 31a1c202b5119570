/**
 * The processes of the push scenarios (bench/scenarios/push.ts): Keystream nodes started fresh
 * from dist/ with bench/servers/gc-probe.cjs preloaded (RSS after a full GC on SIGUSR2), and the
 * websocket client processes (bench/servers/push-clients.ts) driven over IPC.
 *
 * File descriptors: every socket is one on the node and one in a client process. Both are started
 * through `sh -c 'ulimit -n <hard limit>'`, which raises the soft limit to the hard one (an
 * unprivileged process may); a hard limit too low for the share of sockets is refused up front
 * with what to do (`ulimit -Hn` in the shell that starts the bench, or `LimitNOFILE=`).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ClientAccount, FromClients, ToClients } from "../servers/push-clients.js";
import { freePort, type RunningServer, startServer } from "./processes.js";
import { LOG_LEVEL, ROOT, serverCommand } from "./settings.js";

/** Descriptors a process needs beyond its sockets (its files, its database, Node's own). */
const SPARE_DESCRIPTORS = 256;
const RAISE_LIMIT = 'ulimit -n "$(ulimit -Hn)" && exec "$0" "$@"';

/** The hard limit on open files this shell's children may raise themselves to. */
export function hardFileLimit(): number {
  const text = execFileSync("sh", ["-c", "ulimit -Hn"], { encoding: "utf8" }).trim();
  return text === "unlimited" ? Number.POSITIVE_INFINITY : Number(text);
}

/** Refuses a run whose processes could not hold their sockets. */
export function checkFileLimit(socketsPerProcess: number): void {
  const hard = hardFileLimit();
  if (hard < socketsPerProcess + SPARE_DESCRIPTORS) {
    throw new Error(
      `push bench: ${socketsPerProcess} sockets in one process need about ${socketsPerProcess + SPARE_DESCRIPTORS} open files, ` +
        `the hard limit is ${hard}: raise it (\`ulimit -Hn\` as root, or LimitNOFILE= for a service), or use fewer PUSH_SOCKETS ` +
        "or more PUSH_CLIENT_PROCESSES",
    );
  }
}

export interface PushNode {
  name: string;
  server: RunningServer;
  wsUrl: string;
  base: string;
  probeFile: string;
}

/** A node on the prepared data directory (and database): `node --expose-gc -r gc-probe.cjs dist/main.js`. */
export async function startPushNode(
  name: string,
  dataDir: string,
  databaseUrl: string | undefined,
  /** BENCH_PROFILE: where `node --cpu-prof` writes the node's profile on exit. */
  profileDir?: string,
): Promise<PushNode> {
  const port = await freePort();
  const probeFile = path.join(dataDir, `gc-probe-${port}.json`);
  const [command, args] = serverCommand([
    ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
    "--expose-gc",
    "-r",
    path.join(ROOT, "bench", "servers", "gc-probe.cjs"),
    path.join(ROOT, "dist", "main.js"),
  ]);
  const env: NodeJS.ProcessEnv = {
    KEYSTREAM_DATA_DIR: dataDir,
    KEYSTREAM_DATABASE_URL: databaseUrl ?? "",
    HOST: "127.0.0.1",
    PORT: String(port),
    LOG_LEVEL,
    FOOTPRINT_PROBE_FILE: probeFile,
    NODE_OPTIONS: "",
  };
  const server = await startServer("sh", ["-c", RAISE_LIMIT, command, ...args], env, {
    stdoutFile: path.join(dataDir, `keystream-${port}.log`),
    port,
  });
  return { name, server, wsUrl: `ws://127.0.0.1:${port}/push/ws`, base: `http://127.0.0.1:${port}`, probeFile };
}

export interface MemoryReading {
  /** VmRSS as it is (KB). */
  rssKb: number;
  /** VmRSS after a full GC (KB), and V8's heap in use then (KB). */
  gcRssKb: number;
  gcHeapKb: number;
}

function statusKb(pid: number, field: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? Number.NaN);
}

/** The node's RSS now, then after a full GC (gc-probe.cjs, SIGUSR2). */
export async function readMemory(node: PushNode): Promise<MemoryReading> {
  const pid = node.server.child.pid as number;
  const rssKb = statusKb(pid, "VmRSS");
  fs.rmSync(node.probeFile, { force: true });
  node.server.child.kill("SIGUSR2");
  for (let i = 0; i < 200 && !fs.existsSync(node.probeFile); i++) await sleep(50);
  // Written by writeFileSync in one go, but read only once it parses.
  for (let i = 0; i < 20; i++) {
    try {
      const probe = JSON.parse(fs.readFileSync(node.probeFile, "utf8")) as { rssKb: number; heapUsed: number };
      return { rssKb, gcRssKb: probe.rssKb, gcHeapKb: probe.heapUsed / 1024 };
    } catch {
      await sleep(50);
    }
  }
  throw new Error(`${node.name}: the GC probe did not answer`);
}

/** User + system CPU time of a process in ms (/proc/<pid>/stat, 100 ticks a second). */
export function cpuMillis(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One client process of bench/servers/push-clients.ts. */
export class ClientProcess {
  private readonly child: ChildProcess;
  private readonly inbox: FromClients[] = [];
  private readonly waiters: Array<() => void> = [];

  constructor() {
    // Without BENCH_PIN's taskset of its own, it inherits the bench's CPU (the load generator's).
    this.child = spawn(
      "sh",
      ["-c", RAISE_LIMIT, process.execPath, "--import", "tsx", path.join(ROOT, "bench", "servers", "push-clients.ts")],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_OPTIONS: "" },
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      },
    );
    this.child.on("message", (message: FromClients) => {
      this.inbox.push(message);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.on("exit", () => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  private async next<T extends FromClients["type"]>(type: T): Promise<Extract<FromClients, { type: T }>> {
    for (;;) {
      const index = this.inbox.findIndex((m) => m.type === type);
      if (index >= 0) return this.inbox.splice(index, 1)[0] as Extract<FromClients, { type: T }>;
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`push client process exited before "${type}"`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private tell(message: ToClients): void {
    this.child.send(message);
  }

  async connect(accounts: ClientAccount[], concurrency: number): Promise<Extract<FromClients, { type: "connected" }>> {
    this.tell({ type: "connect", accounts, concurrency });
    return this.next("connected");
  }

  reset(): void {
    this.tell({ type: "reset" });
  }

  async report(): Promise<Extract<FromClients, { type: "report" }>> {
    this.tell({ type: "report" });
    return this.next("report");
  }

  /** Closes its sockets and waits for it to exit (killed after 15 s). */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, "exit");
    if (this.child.connected) this.tell({ type: "close" });
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }
}
