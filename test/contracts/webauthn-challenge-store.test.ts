import { runContract } from "./harness.js";
import { challengeStoreContract } from "./webauthn-challenge-store.contract.js";

runContract("WebAuthnChallengeStore", challengeStoreContract);
