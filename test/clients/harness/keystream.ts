import fs from "node:fs";
import path from "node:path";
import { type ProcessSet, run, type Started, waitFor } from "./processes.js";

export const APP_ROOT = path.resolve(import.meta.dirname, "../../..");

export interface KeystreamOptions {
  dataDir: string;
  port: number;
  logFile: string;
  /** The public (https, through nginx) URL: overwrite.cli.url. */
  publicUrl: string;
  /**
   * nginx's keystream_files JSON log (harness/nginx.ts `fileActivityLog`): activity.file_log, as in
   * a real deployment (docs/deployment.md "File activities from the proxy log").
   */
  fileLog: string;
}

export interface LogEntry {
  level?: string;
  msg?: string;
  event?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  [key: string]: unknown;
}

export class Keystream {
  readonly url: string;
  private process: Started | undefined;

  constructor(
    private readonly processes: ProcessSet,
    readonly options: KeystreamOptions,
  ) {
    this.url = `http://127.0.0.1:${options.port}`;
  }

  env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(this.options.port),
      KEYSTREAM_DATA_DIR: this.options.dataDir,
      KEYSTREAM_TRUSTED_PROXIES: "127.0.0.1",
      LOG_LEVEL: "info",
    };
  }

  /** `./occ …` on the test's data directory; returns stdout. */
  occ(args: string[], extraEnv: NodeJS.ProcessEnv = {}): string {
    return run(path.join(APP_ROOT, "occ"), args, { cwd: APP_ROOT, env: { ...this.env(), ...extraEnv } });
  }

  async start(): Promise<void> {
    fs.mkdirSync(this.options.dataDir, { recursive: true });
    this.occ(["config:system:set", "activity.file_log", `--value=${this.options.fileLog}`]);
    this.process = this.processes.start("keystream", process.execPath, [path.join(APP_ROOT, "dist/main.js")], {
      cwd: APP_ROOT,
      env: this.env(),
      logFile: this.options.logFile,
    });
    await waitFor(
      "Keystream to answer status.php",
      async () => {
        if (!this.process?.isRunning()) throw new Error(`Keystream exited: ${this.tail()}`);
        try {
          const response = await fetch(`${this.url}/status.php`);
          return response.status === 200;
        } catch {
          return false;
        }
      },
      30_000,
    );
  }

  /** Keystream's structured log (pino JSON lines on stdout). */
  log(): LogEntry[] {
    const entries: LogEntry[] = [];
    for (const line of fs.readFileSync(this.options.logFile, "utf8").split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        entries.push(JSON.parse(line) as LogEntry);
      } catch {
        // a partly written last line
      }
    }
    return entries;
  }

  /**
   * Completed requests: Fastify logs "incoming request" (method, url) and "request completed"
   * (status) under the same reqId; joined here.
   */
  requests(): { method: string; url: string; status: number; reqId: string; entries: LogEntry[] }[] {
    const byId = new Map<string, LogEntry[]>();
    for (const entry of this.log()) {
      if (typeof entry.reqId !== "string") continue;
      const list = byId.get(entry.reqId) ?? [];
      list.push(entry);
      byId.set(entry.reqId, list);
    }
    const out: { method: string; url: string; status: number; reqId: string; entries: LogEntry[] }[] = [];
    for (const [reqId, entries] of byId) {
      const incoming = entries.find((e) => e.req?.url !== undefined);
      const completed = entries.find((e) => e.res?.statusCode !== undefined);
      if (!incoming || !completed) continue;
      out.push({
        method: incoming.req?.method ?? "",
        url: incoming.req?.url ?? "",
        status: completed.res?.statusCode ?? 0,
        reqId,
        entries,
      });
    }
    return out;
  }

  tail(lines = 20): string {
    try {
      return fs.readFileSync(this.options.logFile, "utf8").trim().split("\n").slice(-lines).join("\n");
    } catch {
      return "(no log)";
    }
  }
}
