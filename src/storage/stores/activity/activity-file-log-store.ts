import type { FileLogClaim, FileLogCommit, FileLogStore, FileLogStretch, WriteTransaction } from "../../../activity/ports.js";
import type { Db, DbOrTx } from "../../driver/database.js";
import { transaction } from "../../driver/prepared.js";
import { lent } from "./activity-write-transaction.js";

/** Another node advanced the cursor first: this node's transaction is rolled back, it re-reads. */
class CursorMoved extends Error {}

/**
 * `file_log_cursors` and `file_log_requests` (activity/ports.ts FileLogStore states the contract).
 * A stretch of a log is committed in one transaction: the cursor moves from where this node found
 * it to past the stretch (a conditional write: when another node moved it meanwhile, nothing is
 * written), each request id is claimed (primary key, ON CONFLICT DO NOTHING), and only the
 * requests claimed here get their activities. A crash leaves all of it or none, so a restart
 * neither loses nor repeats a line; two nodes on one log, or on copies of it, never publish a
 * request twice.
 */
export class SqlFileLogStore implements FileLogStore {
  constructor(private readonly db: Db) {}

  async position(logId: string): Promise<number> {
    const row = await this.db.selectFrom("file_log_cursors").select("position").where("log_id", "=", logId).executeTakeFirst();
    return row ? Number(row.position) : 0;
  }

  async commit<R>(
    stretch: FileLogStretch,
    claims: readonly FileLogClaim<R>[],
    write: (transaction: WriteTransaction, rows: R) => Promise<unknown>,
  ): Promise<FileLogCommit> {
    try {
      const published = await transaction(this.db, async (trx) => {
        await this.moveCursor(trx, stretch);
        let claimed = 0;
        for (const claim of claims) {
          const inserted = await trx
            .insertInto("file_log_requests")
            .values({ request_id: claim.requestId, requested_at: claim.requestedAt })
            .onConflict((oc) => oc.column("request_id").doNothing())
            .returning("request_id")
            .executeTakeFirst();
          if (!inserted) continue;
          await write(lent(trx), claim.rows);
          claimed++;
        }
        return claimed;
      });
      return { kind: "committed", published };
    } catch (error) {
      if (error instanceof CursorMoved) return { kind: "moved" };
      throw error;
    }
  }

  /**
   * Compare-and-set: from `from` to `to`, or CursorMoved. On PostgreSQL a concurrent mover of the
   * same row waits for this transaction, then finds the position changed and moves nothing.
   */
  private async moveCursor(trx: DbOrTx, stretch: FileLogStretch): Promise<void> {
    if (stretch.from === 0) {
      const created = await trx
        .insertInto("file_log_cursors")
        .values({ log_id: stretch.logId, position: stretch.to, updated_at: stretch.now })
        .onConflict((oc) => oc.column("log_id").doNothing())
        .returning("log_id")
        .executeTakeFirst();
      if (created) return;
    }
    const moved = await trx
      .updateTable("file_log_cursors")
      .set({ position: stretch.to, updated_at: stretch.now })
      .where("log_id", "=", stretch.logId)
      .where("position", "=", stretch.from)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new CursorMoved();
  }

  async forgetBefore(cutoff: number): Promise<number> {
    const requests = await this.db.deleteFrom("file_log_requests").where("requested_at", "<", cutoff).executeTakeFirst();
    await this.db.deleteFrom("file_log_cursors").where("updated_at", "<", cutoff).execute();
    return Number(requests.numDeletedRows);
  }
}
