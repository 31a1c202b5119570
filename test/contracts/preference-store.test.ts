import { runContract } from "./harness.js";
import { preferenceStoreContract } from "./preference-store.contract.js";

runContract("PreferenceStore", preferenceStoreContract);
