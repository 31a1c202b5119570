import type { StreamSettings } from "./stream-settings.js";

/**
 * The one table of stream filters (docs/upstream/nextcloud-activity.md §1.6, §2.2). Each entry
 * carries everything about the filter: what `GET …/activity/filters` lists, which stream-setting
 * types it can show (for the 204 rule) and the selection it adds to the query. Nothing else
 * switches on filter ids.
 */

/** Conditions a filter adds to `affecteduser = me`; each is an equality prefix of an index. */
export interface StreamSelection {
  /** `self` → 1 (`user = me`), `by` → 0 (`user <> me`, empty authors kept as upstream). */
  isSelf?: 0 | 1;
  /** Rows of one type filter (the row's `category`, set at publish time by `categoryOf`). */
  category?: string;
  /** The object filter. */
  object?: { type: string; id: number };
}

export interface ObjectQuery {
  objectType?: string | undefined;
  objectId?: number | undefined;
}

export interface FilterDefinition {
  id: string;
  name: string;
  priority: number;
  /** Icon path below the base URL. */
  icon: string;
  /** Shown by `GET …/activity/filters` (the object filter `filter` is not a registered filter upstream). */
  listed: boolean;
  /** Stream-setting types this filter can show; undefined = every type. */
  types?: readonly string[];
  /** For type filters: the apps whose rows of `types` belong to it (undefined = any app). */
  apps?: readonly string[];
  select(query: ObjectQuery): StreamSelection;
}

const FILE_TYPES = ["file_created", "file_changed", "file_deleted", "file_restored"] as const;
const ICONS = "/index.php/apps/activity/img";

export const FILTERS: readonly FilterDefinition[] = [
  { id: "all", name: "All activities", priority: 0, icon: `${ICONS}/activity.svg`, listed: true, select: () => ({}) },
  { id: "self", name: "By you", priority: 1, icon: `${ICONS}/user.svg`, listed: true, select: () => ({ isSelf: 1 }) },
  { id: "by", name: "By others", priority: 2, icon: `${ICONS}/contacts.svg`, listed: true, select: () => ({ isSelf: 0 }) },
  {
    id: "files",
    name: "File changes",
    priority: 30,
    icon: `${ICONS}/change.svg`,
    listed: true,
    types: FILE_TYPES,
    apps: ["files"],
    select: () => ({ category: "files" }),
  },
  {
    id: "files_sharing",
    name: "File shares",
    priority: 31,
    icon: `${ICONS}/share.svg`,
    listed: true,
    types: ["shared", "remote_share", "public_links"],
    apps: ["files_sharing"],
    select: () => ({ category: "files_sharing" }),
  },
  {
    id: "security",
    name: "Security",
    priority: 40,
    icon: `${ICONS}/security.svg`,
    listed: true,
    types: ["security"],
    select: () => ({ category: "security" }),
  },
  {
    // docs/upstream/nextcloud-activity.md §2: only object_type and object_id together select an
    // object; otherwise the filter shows the activities without an object (object_type '' and
    // object_id 0), as upstream.
    id: "filter",
    name: "Object",
    priority: 100,
    icon: `${ICONS}/activity.svg`,
    listed: false,
    select: ({ objectType, objectId }) =>
      objectType && objectId ? { object: { type: objectType, id: objectId } } : { object: { type: "", id: 0 } },
  },
];

export function findFilter(id: string): FilterDefinition | undefined {
  return FILTERS.find((filter) => filter.id === id);
}

/** docs/upstream/nextcloud-activity.md §1.6: sorted by priority, ties by id. */
export function listedFilters(): FilterDefinition[] {
  return FILTERS.filter((f) => f.listed).sort((a, b) => a.priority - b.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The type filter a new row belongs to, stored in its `category` column so that filter is an
 * index prefix. Type filters are disjoint, so a row belongs to at most one. (Changing a type
 * filter's types or apps needs a migration that recomputes the column.)
 */
export function categoryOf(app: string, type: string): string {
  const match = FILTERS.find((f) => f.types && f.id !== "all" && f.types.includes(type) && (!f.apps || f.apps.includes(app)));
  return match?.id ?? "";
}

/**
 * The 204 rule (docs/spec/activity-api.md: "the user has selected no activities to be listed"): a type filter whose
 * types are all switched off, or any other filter when every known type is switched off.
 */
export function streamDisabled(filter: FilterDefinition, settings: StreamSettings): boolean {
  const types = filter.types ?? Object.keys(settings);
  return types.length > 0 && types.every((type) => settings[type] === false);
}
