import fs from "node:fs/promises";
import type { Clock } from "../clock.js";
import { sha256Hex } from "../crypto/secrets.js";
import { activityErrorMessage } from "./domain/errors.js";
import { fileActivityEvent, fileChangeOf, parseProxyLogLine } from "./domain/file-changes.js";
import type { FileLogClaim, FileLogStore, NewActivity } from "./ports.js";
import { validateEachForPublish } from "./publish-activity.js";
import type { ActivityService } from "./service.js";

/** What one read of a log did, line by line. */
export interface FileLogReport {
  /** Complete lines read (a partial last line is left for the next read). */
  lines: number;
  /** Activities written by this read (requests another read already published are not counted). */
  published: number;
  /** Lines that were no file change: failed requests, reads, other users' folders, too old. */
  ignored: number;
  /** Lines that are not `keystream_files` records, or whose event publish refuses. */
  unusable: number;
}

interface FollowerLog {
  warn(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

export interface FileLogFollowerOptions {
  activity: ActivityService;
  cursors: FileLogStore;
  clock: Clock;
  log: FollowerLog;
  /** Lines per transaction (tests make it small to stop between batches). */
  linesPerBatch?: number;
}

/** Bytes read at a time; a line longer than this is skipped (nginx's lines are far shorter). */
const CHUNK_BYTES = 1 << 20;
/** The first line names the log; nginx's lines are well below this. */
const IDENTITY_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

const emptyReport = (): FileLogReport => ({ lines: 0, published: 0, ignored: 0, unusable: 0 });

function addTo(total: FileLogReport, part: FileLogReport): void {
  for (const key of Object.keys(total) as (keyof FileLogReport)[]) total[key] += part[key];
}

/**
 * Turns the proxy's access log into file activities (docs/deployment.md "File activities from
 * the proxy log"). A log is known by the hash of its first line: the same file has the same
 * identity on every node, a rotated or truncated file starts a new one, and a file renamed by
 * rotation keeps its own (so its last lines are still read, from its cursor). Reading resumes at
 * the stored cursor and takes complete lines only; each batch is published and the cursor advanced
 * in one transaction (ports.ts FileLogStore.commit), once per request id.
 */
export class FileLogFollower {
  private readonly linesPerBatch: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: FileLogFollowerOptions) {
    this.linesPerBatch = options.linesPerBatch ?? 500;
  }

  /**
   * One round on the configured log: first its rotated predecessor `<file>.1` (logrotate's name
   * with `delaycompress`), which may hold lines written after the last round and before the
   * rotation, then the file itself. Missing files are no error (nothing logged yet).
   */
  async follow(file: string): Promise<FileLogReport> {
    const total = emptyReport();
    for (const candidate of [`${file}.1`, file]) {
      const report = await this.importFile(candidate).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return emptyReport();
        throw error;
      });
      addTo(total, report);
    }
    return total;
  }

  /** Reads `file` from its stored cursor to its last complete line (`occ activity:import-file-log`). */
  async importFile(file: string): Promise<FileLogReport> {
    const report = emptyReport();
    const handle = await fs.open(file, "r");
    try {
      const first = await readCompleteLines(handle, 0, 1, IDENTITY_BYTES);
      if (first.lines.length === 0) return report;
      const logId = sha256Hex(first.lines[0]!);
      let position = await this.options.cursors.position(logId);
      for (;;) {
        // Most rounds find nothing new: a stat instead of reading a chunk.
        if ((await handle.stat()).size <= position) return report;
        const read = await readCompleteLines(handle, position, this.linesPerBatch, CHUNK_BYTES);
        if (read.consumed === 0) return report;
        if (read.overlong) this.options.log.warn({ event: "file_log_line_too_long", file, position }, "log line skipped");
        const seen = emptyReport();
        const batch = await this.batchOf(read.lines, seen);
        const stretch = { logId, from: position, to: position + read.consumed, now: this.options.clock.nowSeconds() };
        const written: NewActivity[] = [];
        const outcome = await this.options.cursors.commit(stretch, batch, (trx, rows) => {
          written.push(...rows);
          return this.options.activity.store.insertInto(trx, rows);
        });
        if (outcome.kind === "moved") {
          // Another node committed this stretch first: go on from where it got to.
          position = await this.options.cursors.position(logId);
          continue;
        }
        await this.options.activity.written(written);
        addTo(report, { ...seen, published: outcome.published });
        position = stretch.to;
      }
    } finally {
      await handle.close();
    }
  }

  /** The claims (request id and rows) for a batch of lines; counts what is skipped and why. */
  private async batchOf(lines: readonly string[], report: FileLogReport): Promise<FileLogClaim<NewActivity[]>[]> {
    const now = this.options.clock.nowSeconds();
    const cutoff = this.options.activity.retentionCutoff();
    const wanted: { requestId: string; requestedAt: number; event: Record<string, unknown> }[] = [];
    for (const line of lines) {
      report.lines++;
      const record = parseProxyLogLine(line);
      if (!record) {
        report.unusable++;
        continue;
      }
      const found = fileChangeOf(record);
      // Past retention the activity would be expired at once, and its request id may be forgotten
      // already (FileLogStore.forgetBefore): skipping keeps a re-read from publishing it again.
      if ("ignored" in found || record.time < cutoff) {
        report.ignored++;
        this.options.log.debug(
          {
            event: "file_log_line_ignored",
            request_id: record.requestId,
            reason: "ignored" in found ? found.ignored : "too old",
          },
          "no file activity",
        );
        continue;
      }
      wanted.push({
        requestId: record.requestId,
        requestedAt: record.time,
        event: fileActivityEvent(found.user, found.change, record.time),
      });
    }
    const validated = await validateEachForPublish(
      this.options.activity.store,
      wanted.map((w) => w.event),
      now,
    );
    const claims: FileLogClaim<NewActivity[]>[] = [];
    for (const [i, result] of validated.entries()) {
      const { requestId, requestedAt } = wanted[i]!;
      if (result.ok) {
        claims.push({ requestId, requestedAt, rows: result.value });
        continue;
      }
      report.unusable++;
      this.options.log.warn(
        { event: "file_log_event_refused", request_id: requestId, reason: activityErrorMessage(result.error) },
        "file activity not published",
      );
    }
    return claims;
  }

  /** Follows `file()` (read at each round: empty means off) every `intervalMs` on this node. */
  start(file: () => string, intervalMs: number, onError: (error: unknown) => void): void {
    const tick = () => {
      const path = file();
      if (path === "") return;
      this.running ??= this.follow(path)
        .then(
          () => undefined,
          (error: unknown) => onError(error),
        )
        .finally(() => {
          this.running = undefined;
        });
    };
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}

/**
 * Up to `maxLines` complete lines from `position`, and how many bytes they take. A chunk without
 * any newline that fills the buffer is one overlong line: it is consumed (and flagged) so reading
 * never stalls on it; a partial last line otherwise waits for nginx to finish it.
 */
async function readCompleteLines(
  handle: fs.FileHandle,
  position: number,
  maxLines: number,
  chunkBytes: number,
): Promise<{ lines: string[]; consumed: number; overlong: boolean }> {
  const buffer = Buffer.alloc(chunkBytes);
  const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
  const lines: string[] = [];
  let start = 0;
  while (lines.length < maxLines) {
    const end = buffer.indexOf(NEWLINE, start);
    if (end === -1 || end >= bytesRead) break;
    lines.push(buffer.toString("utf8", start, end));
    start = end + 1;
  }
  if (lines.length === 0 && bytesRead === chunkBytes) return { lines: [], consumed: bytesRead, overlong: true };
  return { lines, consumed: start, overlong: false };
}
