import type { JobScheduler } from "../jobs/scheduler.js";
import type { ActivityService } from "./service.js";

/** research §7: retention runs once a day (on one node, through the scheduler's lease). */
export function registerActivityJobs(
  jobs: JobScheduler,
  activity: ActivityService,
  log: { info(o: object, m: string): void },
): void {
  jobs.register({
    name: "activity:expire",
    intervalSeconds: () => 86_400,
    run: async () => {
      const deleted = await activity.expire();
      log.info({ event: "activity_expired", deleted }, "expired activities deleted");
    },
  });
}
