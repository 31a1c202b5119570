import { avatarStoreContract } from "./avatar-store.contract.js";
import { runContract } from "./harness.js";

runContract("AvatarStore", avatarStoreContract);
