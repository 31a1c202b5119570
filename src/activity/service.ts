import type { Clock } from "../clock.js";
import type { ActivityStore } from "../storage/activity-store.js";
import type { IdempotencyStore } from "../storage/idempotency-store.js";
import type { StreamEntry } from "./domain/element.js";
import { ElementJsonCache } from "./domain/element-json.js";
import { activityErrorMessage, fail, ok, type Result } from "./domain/errors.js";
import { type FilterDefinition, listedFilters } from "./domain/filters.js";
import { IDEMPOTENCY_KEY_LIFETIME_SECONDS, type Publisher } from "./domain/idempotency.js";
import type { ListQuery } from "./domain/page.js";
import { PageExpectations } from "./domain/page-expectations.js";
import type { RenderContext } from "./domain/prepared-text.js";
import { effectiveStreamSettings, parseStreamSettingsUpdate, type StreamSettings } from "./domain/stream-settings.js";
import { listActivities, renderRows, type StreamPage, streamEntries } from "./list-activities.js";
import { type PublishAnswer, publishActivities, publishActivitiesOnce } from "./publish-activity.js";

const DAY = 86_400;
const OPEN_ARRAY = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE_ARRAY = Buffer.from("]");

/** The activity stream as one service, shared by HTTP, the CLI, background jobs and other modules. */
export class ActivityService {
  /** Per process: what it holds is checked against the database on every page (element-json.ts). */
  private readonly elementJson = new ElementJsonCache();
  /** Per process: what each reader's last page needed, read with the next (page-expectations.ts). */
  private readonly pageExpectations = new PageExpectations();

  constructor(
    readonly store: ActivityStore,
    readonly idempotencyKeys: IdempotencyStore,
    private readonly clock: Clock,
    /** Host setting activity_expire_days, read on each run so `occ config:system:set` applies at once. */
    private readonly expireDays: () => number,
  ) {}

  /** One event or an array of events (element field names); all-or-nothing. */
  publish(events: unknown): Promise<Result<number[]>> {
    return publishActivities(this.store, events, this.clock.nowSeconds());
  }

  /**
   * publish() under an idempotency key (`Idempotency-Key`, `occ activity:publish --idempotency-key`):
   * the same key from the same publisher within 24 h answers the first ids and writes nothing.
   */
  publishOnce(events: unknown, publisher: Publisher, key: string): Promise<Result<PublishAnswer>> {
    const stores = { activity: this.store, keys: this.idempotencyKeys };
    return publishActivitiesOnce(stores, publisher, key, events, this.clock.nowSeconds());
  }

  /** For other modules: like publish, but a refused event is a programming error and throws. */
  async publishOrThrow(events: unknown): Promise<number[]> {
    const result = await this.publish(events);
    if (!result.ok) throw new Error(`activity not published: ${activityErrorMessage(result.error)}`);
    return result.value;
  }

  /** A page of the stream, rendered in `language` (the reader's; English when absent). */
  list(uid: string, query: ListQuery, baseUrl: string, language?: string): Promise<Result<StreamPage>> {
    return listActivities(this.store, uid, query, baseUrl, language, this.pageExpectations);
  }

  /** A page's elements with their segments (the web page, the XML answer). */
  entries(page: StreamPage): StreamEntry[] {
    return streamEntries(page.groups, page.context);
  }

  /** A page's elements as the JSON array of the API's answer, in UTF-8 pieces to concatenate. */
  elementsJson(page: StreamPage): Buffer[] {
    const parts: Buffer[] = [OPEN_ARRAY];
    page.groups.forEach((group, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(this.elementJson.json(group, page.context));
    });
    parts.push(CLOSE_ARRAY);
    return parts;
  }

  filters(): FilterDefinition[] {
    return listedFilters();
  }

  async streamSettings(uid: string): Promise<StreamSettings> {
    return effectiveStreamSettings(await this.store.streamSettings(uid));
  }

  async updateStreamSettings(uid: string, body: unknown): Promise<Result<StreamSettings>> {
    const changes = parseStreamSettingsUpdate(body);
    if (typeof changes === "string") return fail({ code: "invalid_settings", message: changes });
    await this.store.saveStreamSettings(uid, changes);
    return ok(await this.streamSettings(uid));
  }

  /** research §7: deletes activities older than max(1, activity_expire_days) days; returns the count. */
  expire(): Promise<number> {
    return this.store.deleteOlderThan(this.retentionCutoff());
  }

  /**
   * Activities from before this instant (epoch seconds) are past retention: expire() deletes them,
   * and the proxy-log follower publishes none (file-log-follower.ts).
   */
  retentionCutoff(): number {
    return this.clock.nowSeconds() - Math.max(1, this.expireDays()) * DAY;
  }

  /** Forgets idempotency keys older than 24 h (the purge job); returns how many. */
  expireIdempotencyKeys(): Promise<number> {
    return this.idempotencyKeys.deleteExpired(this.clock.nowSeconds() - IDEMPOTENCY_KEY_LIFETIME_SECONDS);
  }

  /** Legacy API v1 (`/ocs/v{1,2}.php/cloud/activity`): newest first from an offset, filter `all`. */
  async legacyList(
    uid: string,
    offset: number,
    count: number,
    baseUrl: string,
    language?: string,
  ): Promise<{ entries: StreamEntry[]; context: RenderContext }> {
    const rows = await this.store.newestWithOffset(uid, offset, count);
    return renderRows(this.store, rows, baseUrl, false, language);
  }
}
