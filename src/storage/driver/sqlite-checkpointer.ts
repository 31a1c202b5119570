import fs from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the worker copies new WAL frames back (a copy that finds some ends in two fsyncs). */
const CHECKPOINT_INTERVAL_MS = 20;

/** How often the WAL file's size is looked at until the worker starts. */
const WAL_WATCH_INTERVAL_MS = 1000;

export interface CheckpointStats {
  /** Checkpoints run by the worker. */
  checkpoints: number;
  /** WAL frames the worker copied into the database file. */
  framesCopied: number;
}

type WorkerMessage =
  | { type: "stats"; checkpoints: number; framesCopied: number }
  | { type: "error"; message: string }
  | { type: "recovered" };

/**
 * The worker thread's program, plain CommonJS: evaluated as a string so that it runs the same from
 * dist/ and from the TypeScript sources under tsx (whose loader a worker does not inherit).
 * workerData: { betterSqlite3, file, intervalMs }.
 *
 * PASSIVE never waits for (nor blocks) the server's connection: it copies what no open read still
 * needs. `checkpointed` counts frames from the WAL's last restart, so it drops when the WAL starts
 * over (after the server's own auto-checkpoint).
 *
 * A failure is reported once per streak (a full disk fails every checkpoint: 50 error lines a
 * second otherwise), and the first success after it as "recovered".
 */
const WORKER_PROGRAM = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.betterSqlite3);
const connection = new Database(workerData.file);
let checkpoints = 0, framesCopied = 0, lastCheckpointed = 0, timer, failing = false;
function checkpoint() {
  try {
    const [result] = connection.pragma("wal_checkpoint(PASSIVE)");
    const checkpointed = result ? result.checkpointed : -1;
    // -1: SQLite could not tell (not in WAL mode yet, or an error); nothing to count.
    if (checkpointed >= 0) {
      framesCopied += checkpointed >= lastCheckpointed ? checkpointed - lastCheckpointed : checkpointed;
      lastCheckpointed = checkpointed;
    }
    checkpoints += 1;
    if (failing) parentPort.postMessage({ type: "recovered" });
    failing = false;
  } catch (error) {
    if (!failing) parentPort.postMessage({ type: "error", message: String(error && error.message) });
    failing = true;
  }
  timer = setTimeout(checkpoint, workerData.intervalMs);
}
parentPort.on("message", (message) => {
  if (message === "stats") {
    parentPort.postMessage({ type: "stats", checkpoints, framesCopied });
    return;
  }
  clearTimeout(timer);
  connection.close();
  parentPort.close();
});
timer = setTimeout(checkpoint, workerData.intervalMs);
`;

/**
 * Checkpoints a SQLite database in WAL mode from a worker thread.
 *
 * Why (docs/performance.md): with `synchronous = NORMAL` a commit only appends to the WAL, but the checkpoint
 * that follows every few thousand frames copies them into the database file and fsyncs both files,
 * on the connection that committed, i.e. on the event loop. Under a stream of code exchanges the
 * server sat blocked in those fsyncs for ≈ 12 % of the time (with `synchronous = OFF`, which is not
 * safe to run, the same benchmark went from 0.71–0.85× to 0.93–1.00× of the peer). Here a second
 * connection checkpoints in PASSIVE mode every CHECKPOINT_INTERVAL_MS: it never waits for nor
 * blocks the server's connection, and the server's own auto-checkpoint (wal_autocheckpoint) then
 * finds almost nothing left to copy or sync; it stays as the step that lets the WAL start over from
 * its beginning. Durability is SQLite's, unchanged: a commit is in the WAL before it is answered.
 *
 * The thread (a Node environment of its own, ≈ 13 MB) starts once the WAL file has reached
 * `startAtWalBytes`: a server that writes little never needs it (its own auto-checkpoint copies the
 * rare frames), one under a stream of writes gets it within WAL_WATCH_INTERVAL_MS of the WAL
 * growing. The file only grows (SQLite reuses it from its start after a checkpoint), so its size is
 * the most the WAL has held.
 */
export class SqliteCheckpointer {
  private worker: Worker | undefined;
  private exited: Promise<void> | undefined;
  private watching: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly file: string,
    private readonly onError: (message: string) => void,
    private readonly onRecovered: () => void = () => {},
    startAtWalBytes = 0,
  ) {
    if (startAtWalBytes <= 0) {
      this.start();
      return;
    }
    this.watching = setInterval(() => {
      const wal = fs.statSync(`${file}-wal`, { throwIfNoEntry: false });
      if (wal && wal.size >= startAtWalBytes) this.start();
    }, WAL_WATCH_INTERVAL_MS);
    // Never the reason the process stays up.
    this.watching.unref();
  }

  /** True once the worker thread runs (until stop). */
  get started(): boolean {
    return this.worker !== undefined;
  }

  private start(): void {
    clearInterval(this.watching);
    this.watching = undefined;
    const betterSqlite3 = createRequire(import.meta.url).resolve("better-sqlite3");
    const worker = new Worker(WORKER_PROGRAM, {
      eval: true,
      workerData: { betterSqlite3, file: this.file, intervalMs: CHECKPOINT_INTERVAL_MS },
    });
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "error") this.onError(message.message);
      else if (message.type === "recovered") this.onRecovered();
    });
    worker.on("error", (error) => this.onError(error.message));
    this.exited = new Promise((resolve) => worker.once("exit", () => resolve()));
    // Never the reason the process stays up: stop() ends it on a clean shutdown.
    worker.unref();
    this.worker = worker;
  }

  /** What the worker has done so far (nothing before it started); rejects once stopped. */
  stats(): Promise<CheckpointStats> {
    const { worker, exited } = this;
    if (this.stopped && !worker) return Promise.reject(new Error("the checkpoint worker has stopped"));
    if (!worker || !exited) return Promise.resolve({ checkpoints: 0, framesCopied: 0 });
    // Held while waiting for the answer: an unreferenced worker's messages keep nothing alive.
    worker.ref();
    return new Promise<CheckpointStats>((resolve, reject) => {
      const onMessage = (message: WorkerMessage) => {
        if (message.type !== "stats") return;
        worker.off("message", onMessage);
        resolve({ checkpoints: message.checkpoints, framesCopied: message.framesCopied });
      };
      worker.on("message", onMessage);
      void exited.then(() => {
        worker.off("message", onMessage);
        reject(new Error("the checkpoint worker has stopped"));
      });
      worker.postMessage("stats");
    }).finally(() => worker.unref());
  }

  /** Closes the worker's connection and ends the thread (again: the same promise). */
  stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.watching);
    this.watching = undefined;
    if (!this.worker || !this.exited) return Promise.resolve();
    this.worker.ref();
    // A second "stop" finds the worker's port closed and is dropped.
    this.worker.postMessage("stop");
    return this.exited;
  }
}
