import { clientStoreContract } from "./client-store.contract.js";
import { runContract } from "./harness.js";

runContract("ClientStore", clientStoreContract);
