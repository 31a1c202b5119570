import { pathInUserRoot } from "./user-root.js";

/**
 * File activities from the reverse proxy's access log (docs/deployment.md "File activities from the
 * proxy log"). The file server knows nothing of Keystream; nginx, which asked Keystream who the
 * user is (forward auth), logs each WebDAV request as one JSON line
 * (deploy/nginx/keystream-files-log.conf), and each successful write becomes one activity for that
 * user.
 */

/** One line of the `keystream_files` log format, as nginx writes it (every value a string). */
export interface ProxyLogRecord {
  /** nginx `$request_id`: 32 random hex digits, unique per request; the activity's once-only key. */
  requestId: string;
  /** `$msec`: when the request was logged, epoch seconds. */
  time: number;
  status: number;
  method: string;
  /** `$request_uri`: the target as sent, still percent-encoded (decoded by pathInUserRoot). */
  uri: string;
  /** `$http_destination` (MOVE, COPY), empty otherwise. */
  destination: string;
  /** `$keystream_user`: the user Keystream's forward-auth answer named (X-Keystream-User). */
  user: string;
}

const REQUEST_ID = /^[0-9a-f]{16,64}$/i;

/** The record on one log line, or undefined for a line that is not one (JSON or fields wrong). */
export function parseProxyLogLine(line: string): ProxyLogRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const field = (name: string): string | undefined => {
    const v = (value as Record<string, unknown>)[name];
    return typeof v === "string" ? v : undefined;
  };
  const requestId = field("request_id");
  const time = Number(field("msec"));
  const status = Number(field("status"));
  const method = field("method");
  const uri = field("uri");
  if (requestId === undefined || !REQUEST_ID.test(requestId) || method === undefined || uri === undefined) return undefined;
  if (!Number.isFinite(time) || time < 0 || !Number.isInteger(status)) return undefined;
  // nginx logs an empty variable as "" under escape=json and as "-" otherwise.
  const user = field("user") ?? "";
  const destination = field("destination") ?? "";
  return {
    requestId: requestId.toLowerCase(),
    time: Math.floor(time),
    status,
    method: method.toUpperCase(),
    uri,
    destination: destination === "-" ? "" : destination,
    user: user === "-" ? "" : user,
  };
}

/** A file change in one user's files, paths relative to their root. */
export type FileChange =
  | { kind: "created" | "changed" | "deleted"; path: string }
  | { kind: "renamed" | "moved"; path: string; from: string };

/**
 * The change a logged request made, or why it made none. Only 2xx answers changed anything
 * (RFC 9110 §15.3); a failed request never becomes an activity. The mapping (RFC 4918):
 * - PUT: 201 Created made a new file (RFC 9110 §9.3.4 "the origin server MUST inform the user
 *   agent by sending a 201"), any other 2xx replaced an existing one;
 * - MKCOL made a folder; DELETE removed a file or folder;
 * - MOVE to the same folder is a rename, to another folder a move (both upstream's file_changed);
 * - COPY made (201) or replaced (2xx) the destination.
 * Both ends must lie in the authorized user's own root; anything else (another user's folder,
 * upload or trash-bin URLs, reads, PROPPATCH, LOCK) is no file change here.
 */
export function fileChangeOf(record: ProxyLogRecord): { user: string; change: FileChange } | { ignored: string } {
  if (record.status < 200 || record.status > 299) return { ignored: `status ${record.status}` };
  if (record.user === "") return { ignored: "no authorized user" };
  const path = pathInUserRoot(record.uri, record.user);
  const user = record.user;
  switch (record.method) {
    case "PUT":
    case "MKCOL":
    case "DELETE": {
      if (path === undefined) return { ignored: "outside the user's root" };
      const kind =
        record.method === "DELETE" ? "deleted" : record.method === "PUT" && record.status !== 201 ? "changed" : "created";
      return { user, change: { kind, path } };
    }
    case "MOVE":
    case "COPY": {
      const destination = pathInUserRoot(record.destination, record.user);
      if (destination === undefined) return { ignored: "destination outside the user's root" };
      if (record.method === "COPY")
        return { user, change: { kind: record.status === 201 ? "created" : "changed", path: destination } };
      if (path === undefined) return { ignored: "outside the user's root" };
      const kind = parentOf(path) === parentOf(destination) ? "renamed" : "moved";
      return { user, change: { kind, path: destination, from: path } };
    }
    default:
      return { ignored: `method ${record.method}` };
  }
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

/**
 * Upstream's type and own-action subject per change (docs/upstream/nextcloud-activity.md §8.1;
 * templates.ts `files`).
 */
const ACTIVITY_OF: Record<FileChange["kind"], { type: string; subject: string }> = {
  created: { type: "file_created", subject: "created_self" },
  changed: { type: "file_changed", subject: "changed_self" },
  deleted: { type: "file_deleted", subject: "deleted_self" },
  renamed: { type: "file_changed", subject: "renamed_self" },
  moved: { type: "file_changed", subject: "moved_self" },
};

/**
 * The event to publish (element field names, as POST /api/v2/events takes it): `app=files`, the
 * user as author and affected user, `file` parameters (rendered as `<file>` markup; no file id,
 * which only the file server knows), `object_type=files`, `object_name` the path in the root.
 */
export function fileActivityEvent(user: string, change: FileChange, time: number): Record<string, unknown> {
  const { type, subject } = ACTIVITY_OF[change.kind];
  const subjectparams =
    change.kind === "renamed" || change.kind === "moved"
      ? [
          { type: "file", value: change.path },
          { type: "file", value: change.from },
        ]
      : [{ type: "file", value: change.path }];
  return {
    app: "files",
    type,
    affecteduser: user,
    user,
    subject,
    subjectparams,
    object_type: "files",
    object_name: change.path,
    datetime: time,
  };
}
