import assert from "node:assert/strict";
import type { Refusal, Result } from "../../src/refusal.js";

/** The value of an operation the test expects to go through; the test fails with the refusal otherwise. */
export function accepted<T>(result: Result<T>): T {
  if (!result.ok) assert.fail(`refused ${result.code}: ${result.message}`);
  return result.value;
}

/** The refusal of an operation the test expects refused with `code` (src/refusal.ts). */
export function assertRefused(result: Result<unknown> | Refusal | undefined, code: string, message?: string): Refusal {
  assert.ok(result !== undefined && !result.ok, message ?? `expected the refusal ${code}, got ${JSON.stringify(result)}`);
  assert.equal(result.code, code, message);
  return result;
}
