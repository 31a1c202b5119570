import { appPasswordStoreContract } from "./app-password-store.contract.js";
import { runContract } from "./harness.js";

runContract("AppPasswordStore", appPasswordStoreContract);
