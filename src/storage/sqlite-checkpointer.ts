import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the worker copies new WAL frames back (a copy that finds some ends in two fsyncs). */
const CHECKPOINT_INTERVAL_MS = 20;

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
 */
export class SqliteCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(file: string, onError: (message: string) => void, onRecovered: () => void = () => {}) {
    const betterSqlite3 = createRequire(import.meta.url).resolve("better-sqlite3");
    this.worker = new Worker(WORKER_PROGRAM, {
      eval: true,
      workerData: { betterSqlite3, file, intervalMs: CHECKPOINT_INTERVAL_MS },
    });
    this.worker.on("message", (message: WorkerMessage) => {
      if (message.type === "error") onError(message.message);
      else if (message.type === "recovered") onRecovered();
    });
    this.worker.on("error", (error) => onError(error.message));
    this.exited = new Promise((resolve) => this.worker.once("exit", () => resolve()));
    // Never the reason the process stays up: stop() ends it on a clean shutdown.
    this.worker.unref();
  }

  /** What the worker has done so far; rejects once it has stopped. */
  stats(): Promise<CheckpointStats> {
    // Held while waiting for the answer: an unreferenced worker's messages keep nothing alive.
    this.worker.ref();
    return new Promise<CheckpointStats>((resolve, reject) => {
      const onMessage = (message: WorkerMessage) => {
        if (message.type !== "stats") return;
        this.worker.off("message", onMessage);
        resolve({ checkpoints: message.checkpoints, framesCopied: message.framesCopied });
      };
      this.worker.on("message", onMessage);
      void this.exited.then(() => {
        this.worker.off("message", onMessage);
        reject(new Error("the checkpoint worker has stopped"));
      });
      this.worker.postMessage("stats");
    }).finally(() => this.worker.unref());
  }

  /** Closes the worker's connection and ends the thread (again: the same promise). */
  stop(): Promise<void> {
    this.worker.ref();
    // A second "stop" finds the worker's port closed and is dropped.
    this.worker.postMessage("stop");
    return this.exited;
  }
}
