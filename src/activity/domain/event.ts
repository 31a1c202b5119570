import { safeLink } from "../../security/same-origin.js";
import type { NewActivity } from "../ports.js";
import { categoryOf } from "./filters.js";
import { type Parameter, parseParameterList } from "./parameters.js";

/*
 * A published event, validated as docs/upstream/nextcloud-activity.md §9.1 (the server's IEvent
 * setters, nextcloud/server `lib/private/Activity/Event.php`): lengths, required fields, parameter
 * shapes. The input uses the element's own field names; the result is a row ready to insert
 * (NewActivity: the table's columns, less the id the database assigns).
 */

export const MAX_AFFECTED_USERS = 1000;

const FIELDS = new Set([
  "app",
  "type",
  "affecteduser",
  "affectedusers",
  "user",
  "subject",
  "subjectparams",
  "message",
  "messageparams",
  "link",
  "object_type",
  "object_id",
  "object_name",
  "datetime",
]);

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

class Invalid extends Error {}

function text(record: Record<string, unknown>, field: string, max: number, required: boolean): string {
  const value = record[field];
  if (value === undefined || value === null) {
    if (required) throw new Invalid(`field "${field}" is required`);
    return "";
  }
  if (typeof value !== "string") throw new Invalid(`field "${field}" must be a string`);
  if (required && value === "") throw new Invalid(`field "${field}" must not be empty`);
  if (value.length > max) throw new Invalid(`field "${field}" must be at most ${max} characters`);
  return value;
}

function params(record: Record<string, unknown>, field: string): Parameter[] {
  const parsed = parseParameterList(record[field], field);
  if (typeof parsed === "string") throw new Invalid(parsed);
  return parsed;
}

/**
 * A link the web page may put in an href: http(s), or a path that stays on this server once a
 * browser resolves it (`safeLink`, the same rule as the login's `redirect_url`; a path is stored
 * normalised, as it was checked).
 */
function link(record: Record<string, unknown>): string {
  const value = text(record, "link", 4000, false);
  if (value === "") return value;
  const safe = safeLink(value);
  if (safe === undefined || safe.length > 4000) {
    throw new Invalid('field "link" must be an http(s) URL or a path on this server starting with /');
  }
  return safe;
}

function timestamp(record: Record<string, unknown>, now: number): number {
  const value = record.datetime;
  if (value === undefined || value === null) return now;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === "string" && ISO_8601.test(value)) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms) && ms >= 0) return Math.floor(ms / 1000);
  }
  throw new Invalid('field "datetime" must be an ISO 8601 date-time with a time zone, or epoch seconds');
}

function affectedUsers(record: Record<string, unknown>): string[] {
  const single = record.affecteduser;
  const many = record.affectedusers;
  if ((single === undefined) === (many === undefined))
    throw new Invalid('give exactly one of "affecteduser" and "affectedusers"');
  if (single !== undefined) return [text(record, "affecteduser", 64, true)];
  if (!Array.isArray(many) || many.length === 0 || many.length > MAX_AFFECTED_USERS) {
    throw new Invalid(`field "affectedusers" must be an array of 1 to ${MAX_AFFECTED_USERS} user ids`);
  }
  for (const [index, uid] of many.entries()) {
    if (typeof uid !== "string" || uid === "" || uid.length > 64) {
      throw new Invalid(`field "affectedusers[${index}]" must be a user id of 1 to 64 characters`);
    }
  }
  return [...new Set(many as string[])];
}

/** One input event → one row per affected user, or the problem (naming the field). */
export function validateEvent(input: unknown, now: number): NewActivity[] | string {
  try {
    if (input === null || typeof input !== "object" || Array.isArray(input)) throw new Invalid("must be a JSON object");
    const record = input as Record<string, unknown>;
    for (const key of Object.keys(record)) if (!FIELDS.has(key)) throw new Invalid(`unknown field "${key}"`);
    const app = text(record, "app", 32, true);
    const type = text(record, "type", 255, true);
    const users = affectedUsers(record);
    const author = text(record, "user", 64, false);
    const subject = text(record, "subject", 255, true);
    const subjectparams = JSON.stringify(params(record, "subjectparams"));
    const message = text(record, "message", 255, false);
    const messageparams = JSON.stringify(params(record, "messageparams"));
    const objectId = record.object_id ?? 0;
    if (typeof objectId !== "number" || !Number.isSafeInteger(objectId) || objectId < 0) {
      throw new Invalid('field "object_id" must be a non-negative integer');
    }
    const row = {
      timestamp: timestamp(record, now),
      app,
      type,
      user: author,
      category: categoryOf(app, type),
      subject,
      subjectparams,
      message,
      messageparams,
      link: link(record),
      object_type: text(record, "object_type", 255, false),
      object_id: objectId,
      object_name: text(record, "object_name", 4000, false),
    };
    return users.map((affecteduser) => ({ ...row, affecteduser, is_self: author === affecteduser ? 1 : 0 }));
  } catch (error) {
    if (error instanceof Invalid) return error.message;
    throw error;
  }
}

/**
 * A batch (one event or an array) → all rows, or the first problem naming the element and field.
 * All-or-nothing: the caller writes nothing unless every element is valid.
 */
export function validateBatch(input: unknown, now: number, maxEvents = 1000): NewActivity[] | string {
  const events = Array.isArray(input) ? input : [input];
  if (events.length === 0) return "the batch is empty";
  if (events.length > maxEvents) return `at most ${maxEvents} events per request`;
  const rows: NewActivity[] = [];
  for (const [index, event] of events.entries()) {
    const result = validateEvent(event, now);
    if (typeof result === "string") return Array.isArray(input) ? `event ${index}: ${result}` : `event: ${result}`;
    rows.push(...result);
  }
  return rows;
}
