import type { AuditLog } from "../audit/recorder.js";
import type { HostSettings } from "../config/host-settings.js";
import type { Job } from "../jobs/scheduler.js";
import type { Foundation, Module } from "./foundation.js";

/** The audit log's (src/audit) host-setting events, and its retention (host setting audit.retention_days), daily. */
export function wireAudit({ audit, settings, log }: Pick<Foundation, "audit" | "settings" | "log">): Module<{ audit: AuditLog }> {
  auditHostSettingChanges(settings, audit);
  const retention: Job = {
    name: "audit:retention",
    intervalSeconds: () => 86_400,
    run: async () => {
      const deleted = await audit.purgeOlderThan(settings.get("audit.retention_days"));
      if (deleted > 0) log.info({ event: "audit_expired", deleted }, "audit events past their retention deleted");
    },
  };
  return { services: { audit }, jobs: [retention] };
}

/**
 * Host settings written through occ or the console (config/host-settings.ts observeChanges): one
 * event per change; `twofactor_enforced` is the second-factor enforcement (./occ twofactorauth:enforce).
 * The settings are loaded before the storage opens (server.ts reads them first), so the audit log,
 * which needs the storage, can only join them here.
 */
function auditHostSettingChanges(settings: HostSettings, audit: AuditLog): void {
  settings.observeChanges((name, value) => {
    if (name === "twofactor_enforced") {
      audit.record("second_factor.enforcement_changed", {
        subject: { type: "setting", id: name },
        detail: { enforced: value === true },
      });
    } else if (value === undefined) {
      audit.record("setting.deleted", { subject: { type: "setting", id: name } });
    } else {
      audit.record("setting.changed", { subject: { type: "setting", id: name }, detail: { value } });
    }
  });
}
