import type { WriteTransaction } from "../../../activity/ports.js";
import type { DbOrTx } from "../../driver/database.js";

/** A transaction this layer opened, lent to another store's write (activity/ports.ts WriteTransaction). */
export function lent(trx: DbOrTx): WriteTransaction {
  return trx as unknown as WriteTransaction;
}

/** The transaction behind a lent handle. */
export function borrowed(transaction: WriteTransaction): DbOrTx {
  return transaction as unknown as DbOrTx;
}
