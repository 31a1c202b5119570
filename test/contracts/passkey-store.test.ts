import { runContract } from "./harness.js";
import { passkeyStoreContract } from "./passkey-store.contract.js";

runContract("PasskeyStore", passkeyStoreContract);
