import { runContract } from "./harness.js";
import { jobLeaseStoreContract } from "./job-lease-store.contract.js";

runContract("JobLeaseStore", jobLeaseStoreContract);
