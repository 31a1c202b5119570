import type { Job } from "../jobs/scheduler.js";
import type { FileLogStore } from "./ports.js";
import type { ActivityService } from "./service.js";

/**
 * docs/upstream/nextcloud-activity.md §7: retention runs once a day; expired idempotency keys are
 * purged hourly (on one node, through the scheduler's lease); proxy-log request ids past retention
 * are forgotten daily.
 */
export function activityJobs(
  activity: ActivityService,
  fileLogRequests: FileLogStore,
  log: { info(o: object, m: string): void },
): Job[] {
  const expire: Job = {
    name: "activity:expire",
    intervalSeconds: () => 86_400,
    run: async () => {
      const deleted = await activity.expire();
      log.info({ event: "activity_expired", deleted }, "expired activities deleted");
    },
  };
  // Keys are remembered 24 h; purging hourly keeps at most a day and an hour of them.
  const expireIdempotencyKeys: Job = {
    name: "activity:expired-idempotency-keys",
    intervalSeconds: () => 3600,
    run: async () => {
      const deleted = await activity.expireIdempotencyKeys();
      log.info({ event: "idempotency_keys_expired", deleted }, "expired idempotency keys deleted");
    },
  };
  const forgetFileLogRequests: Job = {
    name: "activity:file-log-requests",
    intervalSeconds: () => 86_400,
    run: async () => {
      const forgotten = await fileLogRequests.forgetBefore(activity.retentionCutoff());
      log.info({ event: "file_log_requests_forgotten", forgotten }, "proxy-log request ids past retention forgotten");
    },
  };
  return [expire, expireIdempotencyKeys, forgetFileLogRequests];
}
