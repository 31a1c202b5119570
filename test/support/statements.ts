import type { Storage } from "../../src/storage/driver/connect.js";

/**
 * The statements `work` sends to the storage (each one round trip on PostgreSQL), and its result:
 * how the performance contracts (test/performance-contracts/) count.
 */
export async function statementsOf<T>(
  storage: Pick<Storage, "observeQueries">,
  work: () => Promise<T>,
): Promise<{ statements: number; result: T }> {
  let statements = 0;
  storage.observeQueries(() => {
    statements++;
  });
  try {
    return { result: await work(), statements };
  } finally {
    storage.observeQueries(() => {});
  }
}
