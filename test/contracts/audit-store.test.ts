import { auditStoreContract } from "./audit-store.contract.js";
import { runContract } from "./harness.js";

runContract("AuditStore", auditStoreContract);
