import type { StoredNotification } from "./domain/render.js";

/** A notification to store: a stored one before the store gives it its id. */
export type NewNotificationRecord = Omit<StoredNotification, "id">;

/** A user's notifications (table notifications, storage/stores/notifications/notification-store.ts). */
export interface NotificationStore {
  /** Adds one; returns its id (increasing: a later notification has a larger id). */
  insert(record: NewNotificationRecord): Promise<number>;
  /** The user's newest `limit` notifications, newest (largest id) first. */
  newestOf(uid: string, limit: number): Promise<StoredNotification[]>;
  /** The user's notification `id`; undefined when there is none or it is another user's. */
  findOwn(uid: string, id: number): Promise<StoredNotification | undefined>;
  /** Deletes the user's notification `id` (one statement); false when it was not theirs or not there. */
  deleteOwn(uid: string, id: number): Promise<boolean>;
  /** Deletes every notification of the user; how many went. */
  deleteAllOf(uid: string): Promise<number>;
  /** Deletes the user's notifications about one object (nextcloud/notifications markProcessed); how many went. */
  deleteAbout(uid: string, objectType: string, objectId: string): Promise<number>;
  /**
   * The daily cleanup: deletes notifications created before `createdBefore`, and every user's beyond
   * their newest `keepPerUser`; how many went.
   */
  purge(createdBefore: number, keepPerUser: number): Promise<number>;
}

/** Where the per-kind switches live: the user's preferences (app `notifications`). */
export interface NotificationSwitchStore {
  get(uid: string, key: string): Promise<string | undefined>;
  set(uid: string, key: string, value: string): Promise<void>;
}
