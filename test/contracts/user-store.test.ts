import { runContract } from "./harness.js";
import { userStoreContract } from "./user-store.contract.js";

runContract("UserStore", userStoreContract);
