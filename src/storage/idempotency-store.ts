import type { Db, DbOrTx } from "./database.js";
import { transaction } from "./prepared.js";

/** A key's claim: who, which key, the request's fingerprint, and when (epoch seconds). */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  /** Set for user scopes, so deleting the user deletes their keys. */
  uid: string | null;
  fingerprint: string;
  now: number;
  /** Rows created at or before this instant are expired: forgotten, and replaced by a new claim. */
  expiredAt: number;
}

/** The first request made with a key: its fingerprint and the ids it wrote. */
export interface RememberedAnswer {
  fingerprint: string;
  ids: number[];
}

export type ClaimOutcome<T> = { kind: "first"; value: T } | { kind: "seen"; answer: RememberedAnswer };

/** The key was committed by another request while this one ran: roll back, then read its answer. */
class KeyAlreadyClaimed extends Error {}

/**
 * `idempotency_keys`: a key and its first answer are written in the transaction that writes the
 * events, so a crash leaves both or neither (issue 16, fault 6).
 */
export class IdempotencyStore {
  constructor(private readonly db: Db) {}

  /** The unexpired answer remembered for (scope, key), if any. */
  async find(scope: string, key: string, expiredAt: number, db: DbOrTx = this.db): Promise<RememberedAnswer | undefined> {
    const row = await db
      .selectFrom("idempotency_keys")
      .select(["fingerprint", "result"])
      .where("scope", "=", scope)
      .where("idempotency_key", "=", key)
      .where("created_at", ">", expiredAt)
      .executeTakeFirst();
    return row && { fingerprint: row.fingerprint, ids: JSON.parse(row.result) as number[] };
  }

  /**
   * Runs `write` (the events) and records the claim with its ids, in one transaction; or, when the
   * key turns out taken and unexpired (a concurrent request with it committed first), writes nothing
   * and returns the remembered answer. Callers look the key up with find() first. The key
   * row is inserted first with ON CONFLICT DO NOTHING: on PostgreSQL a concurrent claim of the same
   * key blocks on the first's uncommitted row until it commits (then this one finds it) or rolls
   * back (then this one proceeds); SQLite runs one write transaction at a time.
   */
  async claimAndWrite(claim: IdempotencyClaim, write: (trx: DbOrTx) => Promise<number[]>): Promise<ClaimOutcome<number[]>> {
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
        const written = await write(trx);
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

  /** The purge job: deletes keys created at or before `expiredAt`; returns how many. */
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
