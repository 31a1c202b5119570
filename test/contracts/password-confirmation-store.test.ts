import { runContract } from "./harness.js";
import { passwordConfirmationStoreContract } from "./password-confirmation-store.contract.js";

runContract("PasswordConfirmationStore", passwordConfirmationStoreContract);
