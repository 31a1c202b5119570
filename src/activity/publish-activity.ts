import type { ActivityStore } from "../storage/activity-store.js";
import { fail, ok, type Result } from "./domain/errors.js";
import { validateBatch } from "./domain/event.js";

/**
 * Publishes one event or an array of events (research §9.1 validation), all-or-nothing: every
 * element is validated and every affected user checked first; then all rows are inserted in one
 * transaction. Returns the ids written, in input order.
 */
export async function publishActivities(store: ActivityStore, input: unknown, now: number): Promise<Result<number[]>> {
  const rows = validateBatch(input, now);
  if (typeof rows === "string") return fail({ code: "invalid_event", message: rows });
  const wanted = [...new Set(rows.map((r) => r.affecteduser))];
  const existing = await store.existingUsers(wanted);
  const missing = wanted.filter((uid) => !existing.has(uid));
  if (missing.length > 0) {
    return fail({
      code: "invalid_event",
      message: `unknown affected user${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`,
    });
  }
  return ok(await store.insertAll(rows));
}
