import { runContract } from "./harness.js";
import { recoveryCodeStoreContract } from "./recovery-code-store.contract.js";

runContract("RecoveryCodeStore", recoveryCodeStoreContract);
