import { runContract } from "./harness.js";
import { loginFlowStoreContract } from "./login-flow-store.contract.js";

runContract("LoginFlowStore", loginFlowStoreContract);
