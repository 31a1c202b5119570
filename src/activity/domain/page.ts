import { hash } from "node:crypto";
import type { SortOrder } from "./cursor.js";

/**
 * docs/spec/activity-api.md, Limits: 50 by default; docs/upstream/nextcloud-activity.md §2: at most 200 (upstream clamp
 * since activity 25).
 */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** The stream request, parsed once; the next page's `Link` is built from this same object. */
export interface ListQuery {
  filter: string;
  since: number | undefined;
  limit: number;
  sort: SortOrder;
  /**
   * Set only when both object_type and object_id were given (docs/upstream/nextcloud-activity.md
   * §2: one alone is ignored).
   */
  objectType: string | undefined;
  objectId: number | undefined;
  /** `json` or `xml` when the request named one; carried into the next link. */
  format: string | undefined;
  /**
   * `previews=true`: each element carries a `previews` list (docs/upstream/nextcloud-activity.md
   * §2, §5.2).
   */
  previews: boolean;
}

/** PHP's int cast, which upstream applies to query values: leading digits, else 0. */
function phpInt(value: unknown): number {
  if (typeof value !== "string") return 0;
  const match = /^\s*([+-]?\d+)/.exec(value);
  if (!match?.[1]) return 0;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) ? n : 0;
}

/** PHP's bool cast of a query value, as upstream reads `previews`: "", "0" and "false" are false. */
function phpBool(value: unknown): boolean {
  return typeof value === "string" && value !== "" && value !== "0" && value !== "false";
}

/** Absent or unreadable → 50; below 1 → 1; above 200 → 200. */
export function clampLimit(raw: unknown): number {
  if (typeof raw !== "string" || !/^\s*[+-]?\d+/.test(raw)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, phpInt(raw)));
}

export function parseListQuery(filter: string, raw: Record<string, unknown>): ListQuery {
  const since = phpInt(raw.since);
  const objectType = typeof raw.object_type === "string" ? raw.object_type : "";
  const objectId = phpInt(raw.object_id);
  const both = objectType !== "" && objectId > 0;
  const format = raw.format === "json" || raw.format === "xml" ? raw.format : undefined;
  return {
    filter,
    since: since > 0 ? since : undefined,
    limit: clampLimit(raw.limit),
    sort: raw.sort === "asc" ? "asc" : "desc",
    objectType: both ? objectType : undefined,
    objectId: both ? objectId : undefined,
    format,
    previews: phpBool(raw.previews),
  };
}

/** The rows a page consumes out of the `limit + 1` fetched, and what the probe row tells. */
export interface PageCut<R> {
  rows: R[];
  hasMore: boolean;
  /** Id of the last consumed row: the client's next `since` (X-Activity-Last-Given). */
  lastGiven: number | undefined;
}

export function cutPage<R extends { activity_id: number }>(fetched: R[], limit: number): PageCut<R> {
  const rows = fetched.slice(0, limit);
  return { rows, hasMore: fetched.length > limit, lastGiven: rows.at(-1)?.activity_id };
}

/**
 * The next request's query, in upstream's order: since, limit, sort, object, format
 * (docs/upstream/nextcloud-activity.md §3).
 */
export function nextPageQuery(query: ListQuery, lastGiven: number): string {
  const params = new URLSearchParams();
  params.set("since", String(lastGiven));
  params.set("limit", String(query.limit));
  params.set("sort", query.sort);
  if (query.objectType !== undefined && query.objectId !== undefined) {
    params.set("object_type", query.objectType);
    params.set("object_id", String(query.objectId));
  }
  if (query.format) params.set("format", query.format);
  return params.toString();
}

/**
 * docs/upstream/nextcloud-activity.md §3: MD5 hex of the JSON list of the returned element ids
 * (`[]` → d751713988987e9331980363e24189ce).
 */
export function etagOf(ids: readonly number[]): string {
  // One-shot `hash` (Node ≥ 20.12): no Hash object per page (as in crypto/secrets.ts).
  return hash("md5", JSON.stringify(ids), "hex");
}

/**
 * docs/upstream/nextcloud-activity.md §3: 304 when there is nothing to return, or the client
 * already holds this exact page.
 */
export function isNotModified(elementCount: number, etag: string, ifNoneMatch: string | undefined): boolean {
  if (elementCount === 0) return true;
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) =>
      tag
        .trim()
        .replace(/^W\//, "")
        .replace(/^"(.*)"$/, "$1"),
    )
    .includes(etag);
}
