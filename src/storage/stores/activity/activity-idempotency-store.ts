import type {
  ClaimOutcome,
  IdempotencyClaim,
  IdempotencyStore,
  RememberedAnswer,
  WriteTransaction,
} from "../../../activity/ports.js";
import type { Db } from "../../driver/database.js";
import { transaction } from "../../driver/prepared.js";
import { lent } from "./activity-write-transaction.js";

/** The key was committed by another request while this one ran: roll back, then read its answer. */
class KeyAlreadyClaimed extends Error {}

/** `idempotency_keys` (activity/ports.ts IdempotencyStore states the contract). */
export class SqlIdempotencyStore implements IdempotencyStore {
  constructor(private readonly db: Db) {}

  async find(scope: string, key: string, expiredAt: number): Promise<RememberedAnswer | undefined> {
    const row = await this.db
      .selectFrom("idempotency_keys")
      .select(["fingerprint", "result"])
      .where("scope", "=", scope)
      .where("idempotency_key", "=", key)
      .where("created_at", ">", expiredAt)
      .executeTakeFirst();
    return row && { fingerprint: row.fingerprint, ids: JSON.parse(row.result) as number[] };
  }

  /**
   * The key row is inserted first with ON CONFLICT DO NOTHING: on PostgreSQL a concurrent claim of
   * the same key blocks on the first's uncommitted row until it commits (then this one finds it) or
   * rolls back (then this one proceeds); SQLite runs one write transaction at a time.
   */
  async claimAndWrite(
    claim: IdempotencyClaim,
    write: (transaction: WriteTransaction) => Promise<number[]>,
  ): Promise<ClaimOutcome<number[]>> {
    try {
      const ids = await transaction(this.db, async (trx) => {
        await trx
          .deleteFrom("idempotency_keys")
          .where("scope", "=", claim.scope)
          .where("idempotency_key", "=", claim.key)
          .where("created_at", "<=", claim.expiredAt)
          .execute();
        const claimed = await trx
          .insertInto("idempotency_keys")
          .values({
            scope: claim.scope,
            idempotency_key: claim.key,
            uid: claim.uid,
            fingerprint: claim.fingerprint,
            result: "[]",
            created_at: claim.now,
          })
          .onConflict((oc) => oc.columns(["scope", "idempotency_key"]).doNothing())
          .returning("scope")
          .executeTakeFirst();
        if (!claimed) throw new KeyAlreadyClaimed();
        const written = await write(lent(trx));
        await trx
          .updateTable("idempotency_keys")
          .set({ result: JSON.stringify(written) })
          .where("scope", "=", claim.scope)
          .where("idempotency_key", "=", claim.key)
          .execute();
        return written;
      });
      return { kind: "first", value: ids };
    } catch (error) {
      if (!(error instanceof KeyAlreadyClaimed)) throw error;
      const answer = await this.find(claim.scope, claim.key, claim.expiredAt);
      if (!answer) throw new Error("idempotency key claimed by another request but not found after it committed");
      return { kind: "seen", answer };
    }
  }

  async deleteExpired(expiredAt: number): Promise<number> {
    const result = await this.db.deleteFrom("idempotency_keys").where("created_at", "<=", expiredAt).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom("idempotency_keys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
