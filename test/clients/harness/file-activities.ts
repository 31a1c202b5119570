import assert from "node:assert/strict";
import { fileActivityLog } from "./nginx.js";
import { readIfExists, waitFor } from "./processes.js";

/**
 * File activities end to end (issue 14, docs/deployment.md "File activities from the proxy log"):
 * nginx logs each WebDAV write with the user Keystream authorized, Keystream follows that log
 * (activity.file_log) and publishes the activities the clients read. Shared by both client tests.
 */

/** One line of nginx's keystream_files log (deploy/nginx/keystream-files-log.conf). */
export interface LoggedWrite {
  request_id: string;
  status: string;
  method: string;
  uri: string;
  user: string;
}

/** The writes nginx logged in `nginxDir`, in order. */
export function loggedWrites(nginxDir: string): LoggedWrite[] {
  return readIfExists(fileActivityLog(nginxDir))
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LoggedWrite);
}

/** An element of the activity API v2 (the fields asserted here). */
export interface ActivityV2 {
  app: string;
  type: string;
  user: string;
  affecteduser: string;
  subject: string;
  subject_prepared: string;
  subject_rich: [string, Record<string, { type: string; name: string; path?: string }>];
  object_type: string;
  object_id: number;
  object_name: string;
}

/** An item of the legacy list the ownCloud client reads (`/ocs/v2.php/cloud/activity`). */
export interface LegacyActivity {
  subject: string;
  file: string;
}

export interface ActivityReader {
  /** Keystream's plain-HTTP address (the API answers there as through nginx). */
  url: string;
  uid: string;
  appPassword: string;
}

async function ocsData<T>(reader: ActivityReader, pathAndQuery: string): Promise<T[]> {
  const response = await fetch(`${reader.url}${pathAndQuery}`, {
    headers: {
      authorization: `Basic ${Buffer.from(`${reader.uid}:${reader.appPassword}`).toString("base64")}`,
      "ocs-apirequest": "true",
    },
  });
  assert.equal(response.status, 200, pathAndQuery);
  return ((await response.json()) as { ocs: { data: T[] } }).ocs.data;
}

/** The user's activities from the API v2, newest first (the Nextcloud client's request, without previews). */
export function activitiesV2(reader: ActivityReader): Promise<ActivityV2[]> {
  return ocsData<ActivityV2>(reader, "/ocs/v2.php/apps/activity/api/v2/activity?since=0&limit=50&format=json");
}

/** The user's activities from the legacy list, as the ownCloud client 2.11 asks for them. */
export function legacyActivities(reader: ActivityReader): Promise<LegacyActivity[]> {
  return ocsData<LegacyActivity>(reader, "/ocs/v2.php/cloud/activity?page=0&pagesize=100&format=json");
}

/** Activities made from the proxy log: app files, no file id (only the file server knows one). */
const fromProxyLog = (item: ActivityV2) => item.app === "files" && item.object_id === 0;

/**
 * Waits until Keystream (following nginx's log every 5 s) lists the upload of `/<name>` by
 * `reader.uid`, then checks it is there exactly once, as a created file with its `<file>` markup,
 * and that every file activity from the log answers one successful logged write (none for a
 * refused or failed request). Returns the activity.
 */
export async function assertUploadActivity(reader: ActivityReader, nginxDir: string, name: string): Promise<ActivityV2> {
  const isUpload = (item: ActivityV2) => fromProxyLog(item) && item.type === "file_created" && item.object_name === `/${name}`;
  const items = await waitFor(
    `the activity for the upload of ${name}`,
    async () => {
      const listed = await activitiesV2(reader);
      return listed.some(isUpload) ? listed : undefined;
    },
    30_000,
    500,
  );
  const uploads = items.filter(isUpload);
  assert.equal(uploads.length, 1, `exactly one activity for the upload: ${JSON.stringify(uploads)}`);
  const upload = uploads[0]!;
  assert.equal(upload.object_type, "files");
  assert.equal(upload.subject, "created_self");
  assert.equal(upload.user, reader.uid);
  assert.equal(upload.affecteduser, reader.uid);
  assert.match(
    upload.subject_prepared,
    new RegExp(`^You created <file link="[^"]+" id="">${name.replace(/\./g, "\\.")}</file>$`),
  );
  assert.equal(upload.subject_rich[0], "You created {file}");
  assert.equal(upload.subject_rich[1].file?.type, "file");
  assert.equal(upload.subject_rich[1].file?.name, name);

  const writes = loggedWrites(nginxDir);
  const successful = writes.filter((w) => w.status.startsWith("2") && w.user === reader.uid);
  assert.ok(
    successful.some((w) => w.method === "PUT" && w.uri.endsWith(`/${name}`)),
    `nginx logged the upload: ${JSON.stringify(writes)}`,
  );
  assert.equal(
    items.filter(fromProxyLog).length,
    successful.length,
    `one activity per successful write, none for the others; logged: ${JSON.stringify(writes)}; listed: ${JSON.stringify(
      items.filter(fromProxyLog).map((i) => `${i.type} ${i.object_name}`),
    )}`,
  );
  return upload;
}

/** Writes the client never sent through nginx (a file put on the server's disk) make no activity. */
export async function assertNoActivityFor(reader: ActivityReader, name: string): Promise<void> {
  const items = await activitiesV2(reader);
  assert.deepEqual(
    items.filter((item) => item.object_name === `/${name}`),
    [],
    `no activity for ${name}, which only the file server's disk saw`,
  );
}
