import { runContract } from "./harness.js";
import { sessionStoreContract } from "./session-store.contract.js";

runContract("SessionStore", sessionStoreContract);
