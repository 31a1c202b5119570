import { OBJECT_BYTES, stringBytes } from "../../collections/bounded-cache.js";
import type { ActivityRow } from "../ports.js";
import type { StoredActivity } from "./grouping.js";
import type { Parameter } from "./parameters.js";

/**
 * The memory the activity page's caches hold per activity, estimated as collections/bounded-cache.ts
 * counts it. The parameters and names may be long (a file path is whatever the client wrote), so
 * every text counts.
 */

/** A stored row, and its parameters once more: its decoded form lives as long as the row (page-cache.ts). */
export function rowBytes(row: ActivityRow): number {
  return (
    2 * OBJECT_BYTES +
    stringBytes(row.app) +
    stringBytes(row.type) +
    stringBytes(row.user) +
    stringBytes(row.affecteduser) +
    stringBytes(row.category) +
    stringBytes(row.subject) +
    2 * stringBytes(row.subjectparams) +
    stringBytes(row.message) +
    2 * stringBytes(row.messageparams) +
    stringBytes(row.link) +
    stringBytes(row.object_type) +
    stringBytes(row.object_name)
  );
}

/** A decoded activity (grouping.ts StoredActivity). */
export function activityBytes(activity: StoredActivity): number {
  return (
    OBJECT_BYTES +
    stringBytes(activity.app) +
    stringBytes(activity.type) +
    stringBytes(activity.user) +
    stringBytes(activity.affecteduser) +
    stringBytes(activity.subject) +
    parametersBytes(activity.subjectparams) +
    stringBytes(activity.message) +
    parametersBytes(activity.messageparams) +
    stringBytes(activity.link) +
    stringBytes(activity.object_type) +
    stringBytes(activity.object_name)
  );
}

function parametersBytes(parameters: readonly Parameter[]): number {
  let bytes = OBJECT_BYTES;
  for (const parameter of parameters) {
    bytes += OBJECT_BYTES + stringBytes(parameter.type);
    bytes += parameter.type === "collection" ? parametersBytes(parameter.value) : stringBytes(parameter.value);
  }
  return bytes;
}
