import type { ActivityGroup } from "./grouping.js";
import type { Parameter } from "./parameters.js";
import {
  iconOf,
  preparedText,
  type RenderContext,
  type RichString,
  renderFreeText,
  renderSubject,
  richText,
  type Segment,
} from "./prepared-text.js";

/**
 * The activity element on the wire: every field of the table in docs/spec/activity-api.md, in its order, then the fields
 * today's clients read (docs/upstream/nextcloud-activity.md §5.1: subject_rich, message_rich,
 * objects, icon).
 */
export interface ActivityElement {
  activity_id: number;
  /** ISO 8601 in UTC with a `+00:00` offset (iOS parses exactly that form). */
  datetime: string;
  app: string;
  type: string;
  user: string;
  affecteduser: string;
  subject: string;
  subjectparams: Parameter[];
  subject_prepared: string;
  message: string;
  messageparams: Parameter[];
  message_prepared: string;
  link: string;
  object_type: string;
  object_id: number;
  object_name: string;
  activity_ids: number[];
  subject_rich: RichString;
  message_rich: RichString;
  /** `{"<object_id>": "<object_name>"}` over the element and its group; `[]` when empty (PHP). */
  objects: Record<string, string> | string[];
  icon: string;
}

/**
 * A preview of a file named by an activity (docs/upstream/nextcloud-activity.md §5.2); Keystream
 * gives none, see `withPreviews`.
 */
export interface ActivityPreview {
  link: string;
  source: string;
  mimeType: string;
  isMimeTypeIcon: boolean;
  fileId: number;
  view: string;
  filename: string;
}

/** The element as answered to `previews=true`: upstream then adds the list to every element. */
export type ActivityElementWithPreviews = ActivityElement & { previews: ActivityPreview[] };

/**
 * The previews of an element: always none. Keystream holds no files, mime types or thumbnails,
 * so it has nothing true to show; upstream answers `[]` likewise for objects it cannot preview, and
 * the Nextcloud desktop client reads the empty list as "no thumbnail"
 * (docs/upstream/nextcloud-activity.md §5.2, docs/decisions.md).
 */
export function withPreviews(element: ActivityElement): ActivityElementWithPreviews {
  return { ...element, previews: [] };
}

/** An element plus its rendered segments, which the web page turns into HTML. */
export interface StreamEntry {
  element: ActivityElement;
  subject: Segment[];
  message: Segment[];
}

export function isoDateTime(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/** The largest array index (2^32 - 2). */
const LAST_ARRAY_INDEX = "4294967294";

/**
 * An empty object for keys that are integers (file ids). V8 keeps integer keys as array elements
 * sized up to the largest key, so `{ "417": … }` allocates some 600 slots that JSON.stringify then
 * walks (profiled: a page of 50 takes 1.5 ms of CPU with this, 2.1 ms without). An object that
 * has held a key at the top of the index range keeps its elements in a dictionary instead, one
 * entry per key; the keys still serialize in ascending order, as JSON of any object does.
 */
function integerKeyedObject(): Record<string, string> {
  const object: Record<string, string> = { [LAST_ARRAY_INDEX]: "" };
  delete object[LAST_ARRAY_INDEX];
  return object;
}

/**
 * docs/upstream/nextcloud-activity.md §5.1: entries with id 0 and an empty name are skipped; a lone
 * key 0 becomes a list.
 */
function objectsOf(group: ActivityGroup): Record<string, string> | string[] {
  const objects = integerKeyedObject();
  for (const member of group.members) {
    if (member.object_id === 0 && member.object_name === "") continue;
    objects[String(member.object_id)] = member.object_name;
  }
  const keys = Object.keys(objects);
  if (keys.length === 0) return [];
  if (keys.length === 1 && keys[0] === "0") return [objects["0"]!];
  return objects;
}

export function toStreamEntry(group: ActivityGroup, context: RenderContext): StreamEntry {
  const head = group.members[0]!;
  const subject = renderSubject(head.app, head.subject, group.subjectparams, context.language);
  const message = renderFreeText(head.message, head.messageparams);
  const element: ActivityElement = {
    activity_id: head.activity_id,
    datetime: isoDateTime(head.timestamp),
    app: head.app,
    type: head.type,
    user: head.user,
    affecteduser: head.affecteduser,
    subject: head.subject,
    subjectparams: group.subjectparams,
    subject_prepared: preparedText(subject, context),
    message: head.message,
    messageparams: head.messageparams,
    message_prepared: preparedText(message, context),
    link: head.link,
    object_type: head.object_type,
    object_id: head.object_id,
    object_name: head.object_name,
    activity_ids: group.members.map((m) => m.activity_id),
    subject_rich: richText(subject, context),
    message_rich: richText(message, context),
    objects: objectsOf(group),
    icon: `${context.baseUrl}/index.php/apps/activity/img/${iconOf(head.app, head.subject)}.svg`,
  };
  return { element, subject, message };
}

/** The element as the API answers it, as JSON text. */
export function elementJson(group: ActivityGroup, context: RenderContext): string {
  return JSON.stringify(toStreamEntry(group, context).element);
}
