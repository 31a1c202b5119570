import type { ActivityRow } from "../ports.js";
import { decodeParameters, type Parameter, type ScalarParameter, sameParameter } from "./parameters.js";

/**
 * Grouping of the API v2 era (docs/upstream/nextcloud-activity.md §5.4): consecutive activities of
 * one author, app, type, subject and object type that differ in at most one subject parameter
 * collapse into one element; that parameter becomes a `collection` and `activity_ids` lists the
 * members. Never across pages (the caller groups one page), never for an empty author, never when a
 * message is set.
 */
export const GROUP_WINDOW_SECONDS = 3 * 86_400;
export const MAX_GROUP_MEMBERS = 6;

export interface StoredActivity {
  activity_id: number;
  timestamp: number;
  app: string;
  type: string;
  user: string;
  affecteduser: string;
  subject: string;
  subjectparams: Parameter[];
  message: string;
  messageparams: Parameter[];
  link: string;
  object_type: string;
  object_id: number;
  object_name: string;
}

/** A stored row as grouping and rendering read it: its parameters decoded, its numbers numbers. */
export function decodeRow(row: ActivityRow): StoredActivity {
  return {
    activity_id: row.activity_id,
    timestamp: Number(row.timestamp),
    app: row.app,
    type: row.type,
    user: row.user,
    affecteduser: row.affecteduser,
    subject: row.subject,
    subjectparams: decodeParameters(row.subjectparams),
    message: row.message,
    messageparams: decodeParameters(row.messageparams),
    link: row.link,
    object_type: row.object_type,
    object_id: Number(row.object_id),
    object_name: row.object_name,
  };
}

export interface ActivityGroup {
  /** In stream order; the first is the element's own activity. */
  members: StoredActivity[];
  /** The first member's parameters with the varying one turned into a collection. */
  subjectparams: Parameter[];
}

interface OpenGroup {
  members: StoredActivity[];
  /** Position of the parameter that varies, once a member differed. */
  varying: number | undefined;
}

/** The position where b differs from a, `"same"`, or undefined when they may not merge. */
function differingPosition(a: readonly Parameter[], b: readonly Parameter[]): number | "same" | undefined {
  if (a.length !== b.length) return undefined;
  let found: number | undefined;
  for (let i = 0; i < a.length; i++) {
    const pa = a[i]!;
    const pb = b[i]!;
    if (sameParameter(pa, pb)) continue;
    if (found !== undefined || pa.type !== pb.type || pa.type === "collection") return undefined;
    found = i;
  }
  return found ?? "same";
}

function canJoin(group: OpenGroup, row: StoredActivity): number | "same" | undefined {
  const head = group.members[0]!;
  if (group.members.length >= MAX_GROUP_MEMBERS) return undefined;
  if (head.user === "" || row.user !== head.user) return undefined;
  if (row.app !== head.app || row.type !== head.type || row.subject !== head.subject) return undefined;
  if (row.object_type !== head.object_type || row.message !== "" || head.message !== "") return undefined;
  if (Math.abs(row.timestamp - head.timestamp) >= GROUP_WINDOW_SECONDS) return undefined;
  const position = differingPosition(head.subjectparams, row.subjectparams);
  if (position === undefined || position === "same") return position;
  return group.varying === undefined || group.varying === position ? position : undefined;
}

function close(group: OpenGroup): ActivityGroup {
  const head = group.members[0]!;
  if (group.varying === undefined || group.members.length === 1)
    return { members: group.members, subjectparams: head.subjectparams };
  const position = group.varying;
  const values = group.members.map((m) => m.subjectparams[position] as ScalarParameter);
  const subjectparams = [...head.subjectparams];
  subjectparams[position] = { type: "collection", value: values };
  return { members: group.members, subjectparams };
}

export function groupActivities(rows: readonly StoredActivity[]): ActivityGroup[] {
  const groups: ActivityGroup[] = [];
  let open: OpenGroup | undefined;
  for (const row of rows) {
    const position = open ? canJoin(open, row) : undefined;
    if (open && position !== undefined) {
      open.members.push(row);
      if (position !== "same") open.varying = position;
      continue;
    }
    if (open) groups.push(close(open));
    open = { members: [row], varying: undefined };
  }
  if (open) groups.push(close(open));
  return groups;
}
