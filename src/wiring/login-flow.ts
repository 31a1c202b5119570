import type { Job } from "../jobs/scheduler.js";
import { LoginFlowService } from "../login-flow/service.js";
import { SqlLoginFlowStore } from "../storage/stores/login-flow/login-flow-store.js";
import type { Foundation, Module } from "./foundation.js";

/**
 * Nextcloud's Login Flow v2: the granted app password stays sealed with the key file's box until
 * the poll (docs/decisions.md), and expired flows are purged, with the app passwords nobody received.
 */
export function wireLoginFlows(
  { db, clock, sealer, audit }: Pick<Foundation, "db" | "clock" | "sealer" | "audit">,
  granted: (uid: string, clientName: string) => Promise<void>,
): Module<{ loginFlows: LoginFlowService }> {
  const loginFlows = new LoginFlowService(new SqlLoginFlowStore(db), clock, sealer, audit, granted);
  const expired: Job = {
    name: "login-flow:expired",
    intervalSeconds: () => 600,
    run: async () => {
      await loginFlows.purgeExpired();
    },
  };
  return { services: { loginFlows }, jobs: [expired] };
}
