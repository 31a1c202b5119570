import { runContract } from "./harness.js";
import { totpStoreContract } from "./totp-store.contract.js";

runContract("TotpStore", totpStoreContract);
