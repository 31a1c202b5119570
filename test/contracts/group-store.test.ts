import { groupStoreContract } from "./group-store.contract.js";
import { runContract } from "./harness.js";

runContract("GroupStore", groupStoreContract);
