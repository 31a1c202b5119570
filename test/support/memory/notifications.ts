import type { StoredNotification } from "../../../src/notifications/domain/render.js";
import type { NewNotificationRecord, NotificationStore, NotificationSwitchStore } from "../../../src/notifications/ports.js";
import { deleteWhere } from "./accounts-credentials.js";
import type { MemoryTables } from "./tables.js";

/** notifications/ports.ts NotificationStore in memory (src/storage/stores/notifications/notification-store.ts is the SQL one). */
export class MemoryNotificationStore implements NotificationStore {
  private readonly rows = new Map<number, StoredNotification>();

  constructor(private readonly tables: MemoryTables) {
    tables.onUserDeleted((uid) => deleteWhere(this.rows, (row) => row.uid === uid));
  }

  async insert(record: NewNotificationRecord): Promise<number> {
    this.tables.requireUser(record.uid);
    const id = this.tables.id();
    this.rows.set(id, structuredClone({ ...record, id }));
    return id;
  }

  async newestOf(uid: string, limit: number): Promise<StoredNotification[]> {
    return this.of(uid)
      .slice(0, limit)
      .map((row) => structuredClone(row));
  }

  async findOwn(uid: string, id: number): Promise<StoredNotification | undefined> {
    const row = this.rows.get(id);
    return row?.uid === uid ? structuredClone(row) : undefined;
  }

  async deleteOwn(uid: string, id: number): Promise<boolean> {
    return this.rows.get(id)?.uid === uid && this.rows.delete(id);
  }

  async deleteAllOf(uid: string): Promise<number> {
    return deleteWhere(this.rows, (row) => row.uid === uid);
  }

  async deleteAbout(uid: string, objectType: string, objectId: string): Promise<number> {
    return deleteWhere(this.rows, (row) => row.uid === uid && row.objectType === objectType && row.objectId === objectId);
  }

  async purge(createdBefore: number, keepPerUser: number): Promise<number> {
    const beyond = new Set<number>();
    for (const uid of new Set([...this.rows.values()].map((row) => row.uid))) {
      for (const row of this.of(uid).slice(keepPerUser)) beyond.add(row.id);
    }
    return deleteWhere(this.rows, (row) => row.createdAt < createdBefore || beyond.has(row.id));
  }

  /** The user's notifications, newest (largest id) first. */
  private of(uid: string): StoredNotification[] {
    return [...this.rows.values()].filter((row) => row.uid === uid).sort((a, b) => b.id - a.id);
  }
}

/** notifications/ports.ts NotificationSwitchStore in memory: a user's switches by key. */
export class MemoryNotificationSwitchStore implements NotificationSwitchStore {
  private readonly values = new Map<string, string>();

  async get(uid: string, key: string): Promise<string | undefined> {
    return this.values.get(`${uid}\0${key}`);
  }

  async set(uid: string, key: string, value: string): Promise<void> {
    this.values.set(`${uid}\0${key}`, value);
  }
}
