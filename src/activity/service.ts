import type { Clock } from "../clock.js";
import type { StreamEntry } from "./domain/element.js";
import { activityErrorMessage, fail, ok, type Result } from "./domain/errors.js";
import { type FilterDefinition, listedFilters } from "./domain/filters.js";
import { IDEMPOTENCY_KEY_LIFETIME_SECONDS, type Publisher } from "./domain/idempotency.js";
import type { ListQuery } from "./domain/page.js";
import type { RenderContext } from "./domain/prepared-text.js";
import { effectiveStreamSettings, parseStreamSettingsUpdate, type StreamSettings } from "./domain/stream-settings.js";
import { listActivities, renderRows, type StreamPage, streamEntries } from "./list-activities.js";
import { PageCache } from "./page-cache.js";
import type { ActivityStore, IdempotencyStore, NewActivity } from "./ports.js";
import { type PublishAnswer, publishActivities, publishActivitiesOnce, type WrittenObserver } from "./publish-activity.js";
import { baseForms, type RelativeJson, RelativeJsonBuilder, withBase } from "./relative-json.js";

const DAY = 86_400;
const OPEN_ARRAY = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE_ARRAY = Buffer.from("]");
const EMPTY_PREVIEWS_AND_CLOSE = Buffer.from(',"previews":[]}');

/**
 * What the HTTP layer puts around a page's JSON (the OCS envelope), as UTF-8; one object per kind
 * of answer.
 */
export interface JsonEnvelope {
  head: Buffer;
  tail: Buffer;
}

/** The activity stream as one service, shared by HTTP, the CLI, background jobs and other modules. */
export class ActivityService {
  /** Per process: what it holds is checked against the database on every page (page-cache.ts). */
  private readonly pageCache = new PageCache();

  constructor(
    readonly store: ActivityStore,
    readonly idempotencyKeys: IdempotencyStore,
    private readonly clock: Clock,
    /** Host setting activity_expire_days, read on each run so `occ config:system:set` applies at once. */
    private readonly expireDays: () => number,
    /** Told of every activity written (publish, publishOnce, the proxy-log follower), after its write committed (the push hub: src/push/). */
    private readonly writtenObservers: readonly WrittenObserver[] = [],
  ) {}

  /**
   * Tells the observers of rows written and committed. Every writer of activities calls it (publish
   * does itself; the proxy-log follower after its commit). Observers do not throw: what they tell
   * is best effort, and the write already stands.
   */
  async written(rows: readonly NewActivity[]): Promise<void> {
    if (rows.length === 0) return;
    for (const observer of this.writtenObservers) await observer(rows);
  }

  /** One event or an array of events (element field names); all-or-nothing. */
  publish(events: unknown): Promise<Result<number[]>> {
    return publishActivities(this.store, events, this.clock.nowSeconds(), (rows) => this.written(rows));
  }

  /**
   * publish() under an idempotency key (`Idempotency-Key`, `occ activity:publish --idempotency-key`):
   * the same key from the same publisher within 24 h answers the first ids and writes nothing.
   */
  publishOnce(events: unknown, publisher: Publisher, key: string): Promise<Result<PublishAnswer>> {
    const stores = { activity: this.store, keys: this.idempotencyKeys };
    return publishActivitiesOnce(stores, publisher, key, events, this.clock.nowSeconds(), (rows) => this.written(rows));
  }

  /** For other modules: like publish, but a refused event is a programming error and throws. */
  async publishOrThrow(events: unknown): Promise<number[]> {
    const result = await this.publish(events);
    if (!result.ok) throw new Error(`activity not published: ${activityErrorMessage(result.error)}`);
    return result.value;
  }

  /** A page of the stream, rendered in `language` (the reader's; English when absent). */
  list(uid: string, query: ListQuery, baseUrl: string, language?: string): Promise<Result<StreamPage>> {
    return listActivities(this.store, this.pageCache, uid, query, baseUrl, language);
  }

  /** A page's elements with their segments (the web page, the XML answer). */
  entries(page: StreamPage): StreamEntry[] {
    return streamEntries(page.groups, page.context);
  }

  /**
   * A page's answer as UTF-8: `envelope.head`, its elements as a JSON array, `envelope.tail`. With
   * `previews` each element also has `"previews":[]` as its last member (withPreviews, the Nextcloud
   * client's form), spliced into the cached element's bytes. The answer is cached without the page's
   * base URL and reused while the page's rendering is (page-cache.ts: same rows, language and
   * names); the base URL is spliced in (relative-json.ts), and the same bytes answered again while
   * it is the same.
   */
  answerJson(page: StreamPage, envelope: JsonEnvelope, previews = false): Buffer {
    const { baseUrl } = page.context;
    const answered = this.pageCache.answer(page.groups, envelope, previews);
    if (answered?.baseUrl === baseUrl) return answered.bytes;
    const body = answered?.body ?? this.relativeAnswer(page, envelope, previews);
    const bytes = withBase(body, baseForms(baseUrl));
    this.pageCache.rememberAnswer(page.groups, { envelope, previews, body, baseUrl, bytes });
    return bytes;
  }

  /** answerJson's bytes without the base URL, assembled from the elements' cached JSON. */
  private relativeAnswer(page: StreamPage, envelope: JsonEnvelope, previews: boolean): RelativeJson {
    const body = new RelativeJsonBuilder();
    body.push(envelope.head);
    body.push(OPEN_ARRAY);
    page.groups.forEach((group, i) => {
      if (i > 0) body.push(COMMA);
      const json = this.pageCache.elements.json(group, page.context);
      // An element is a JSON object: its last byte is the closing brace.
      if (previews) {
        body.pushRelative(json, json.bytes.length - 1);
        body.push(EMPTY_PREVIEWS_AND_CLOSE);
      } else {
        body.pushRelative(json);
      }
    });
    body.push(CLOSE_ARRAY);
    body.push(envelope.tail);
    return body.build();
  }

  /** The bytes the page's caches hold, each at most its budget (page-cache.ts). */
  cacheBytes(): PageCache["bytes"] {
    return this.pageCache.bytes;
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

  /**
   * docs/upstream/nextcloud-activity.md §7: deletes activities older than
   * max(1, activity_expire_days) days; returns the count.
   */
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
