import { runContract } from "./harness.js";
import { notificationStoreContract } from "./notification-store.contract.js";

runContract("NotificationStore", notificationStoreContract);
