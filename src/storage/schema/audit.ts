import type { Generated } from "kysely";
import type { EpochSeconds } from "./accounts.js";

/**
 * The audit log (src/audit): append-only, no foreign key to `users` on purpose: an account's
 * events outlive the account (docs/decisions.md "Audit log").
 */
export interface AuditLogTable {
  id: Generated<number>;
  at: EpochSeconds;
  kind: string;
  actor: string;
  uid: string | null;
  subject_type: string | null;
  subject: string | null;
  address: string | null;
  user_agent: string | null;
  request_id: string | null;
  /** A JSON object, or null. */
  detail: string | null;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
