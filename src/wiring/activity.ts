import { FileLogFollower } from "../activity/file-log-follower.js";
import { activityJobs } from "../activity/jobs.js";
import type { WrittenObserver } from "../activity/publish-activity.js";
import { ActivityService } from "../activity/service.js";
import { SqlFileLogStore } from "../storage/stores/activity/activity-file-log-store.js";
import { SqlIdempotencyStore } from "../storage/stores/activity/activity-idempotency-store.js";
import { SqlActivityStore } from "../storage/stores/activity/activity-store.js";
import type { Foundation, Module } from "./foundation.js";

export interface ActivityServices {
  activity: ActivityService;
  /** Follows the proxy's access log into file activities; started by the server. */
  fileLog: FileLogFollower;
}

/** The activity stream on SQL storage, the proxy-log follower, and their retention jobs (activity/jobs.ts). */
export function wireActivity(
  { storage, clock, settings, log }: Pick<Foundation, "storage" | "clock" | "settings" | "log">,
  written: WrittenObserver,
): Module<ActivityServices> {
  const { db } = storage;
  const activity = new ActivityService(
    new SqlActivityStore(db, storage.dialect),
    new SqlIdempotencyStore(db),
    clock,
    () => settings.get("activity_expire_days"),
    [written],
  );
  const fileLogStore = new SqlFileLogStore(db);
  return {
    services: { activity, fileLog: new FileLogFollower({ activity, cursors: fileLogStore, clock, log }) },
    jobs: activityJobs(activity, fileLogStore, log),
  };
}
