import assert from "node:assert/strict";
import { setTimeout as delay } from "node:timers/promises";
import type { ClientRun } from "./desktop.js";
import type { LogEntry } from "./keystream.js";
import { waitFor } from "./processes.js";
import { escapeRegExp, httpsGet, note } from "./scenario.js";
import type { Stage } from "./stage.js";

/**
 * Push as the Nextcloud desktop client 3.7 lives it (nextcloud/desktop
 * `src/libsync/pushnotifications.cpp`, `src/gui/tray/usermodel.cpp`): the `notify_push` capability,
 * the websocket through nginx, `notify_activity` followed by the tray's activity request, and the
 * client's own refresh timer stopped once push is ready.
 */

/** The tray's activity request (`ActivityListModel`), whatever its `since`. */
export const ACTIVITY_PATH = "/ocs/v2.php/apps/activity/api/v2/activity?";
/** The tray's notifications request (`ServerNotificationHandler`). */
export const NOTIFICATIONS_PATH = "/ocs/v2.php/apps/notifications/api/v2/notifications";

/** A Keystream request as its log has it, with the time it came in (pino's `time`, epoch ms). */
export interface TimedRequest {
  method: string;
  url: string;
  status: number;
  at: number;
}

/**
 * When a request came in: its access-log line is written when the answer is sent (src/http/access-log.ts),
 * with pino's ISO `time` and the `responseTime` in ms.
 */
function arrival(entries: LogEntry[]): number {
  const line = entries.find((e) => e.res?.statusCode !== undefined);
  return Date.parse(String(line?.time)) - Number(line?.responseTime ?? 0);
}

/** Keystream's completed requests whose URL starts with `prefix`, in the order they came in. */
export function requestsTo(stage: Stage, method: string, prefix: string): TimedRequest[] {
  return stage.keystream
    .requests()
    .filter((r) => r.method === method && r.url.startsWith(prefix))
    .map((r) => ({ method: r.method, url: r.url, status: r.status, at: arrival(r.entries) }))
    .sort((a, b) => a.at - b.at);
}

/** The client's log from `offset` on (a run's log only grows). */
function logSince(client: ClientRun, offset: number): string {
  return client.log().slice(offset);
}

/** Keystream's `push_authenticated` lines for `uid`. */
export function pushAuthentications(stage: Stage, uid: string): LogEntry[] {
  return stage.keystream.log().filter((e) => e.event === "push_authenticated" && e.uid === uid);
}

/**
 * The capability names the websocket behind nginx (wss, the public URL's host), the client opens
 * it and authenticates, and Keystream logs the socket as the user's (its hub holds it).
 */
export async function assertPushConnected(stage: Stage, client: ClientRun, uid: string): Promise<void> {
  const capabilities = JSON.parse(
    (
      await httpsGet(`${stage.publicUrl}/ocs/v2.php/cloud/capabilities?format=json`, stage.pki.caCert, {
        "ocs-apirequest": "true",
      })
    ).body,
  );
  const push = capabilities.ocs.data.capabilities.notify_push as { type: string[]; endpoints: { websocket: string } };
  const websocket = `${stage.publicUrl.replace(/^https:/, "wss:")}/push/ws`;
  assert.equal(push.endpoints.websocket, websocket);
  assert.ok(push.type.includes("activities"), JSON.stringify(push));
  await waitFor(
    "the client to authenticate on the websocket",
    () => /Authenticated successful on websocket/.test(client.log()),
    60_000,
  );
  assert.match(client.log(), new RegExp(`Open connection to websocket on QUrl\\("${escapeRegExp(websocket)}"\\)`));
  assert.match(client.log(), /Push notifications are ready/);
  // The client's socket is nginx's (the public URL's port), passed on by `location /push/` with the
  // upgrade headers; Keystream logs it once its hub holds it.
  const authenticated = await waitFor(
    "Keystream's push_authenticated line for the user",
    () => pushAuthentications(stage, uid).at(-1),
    10_000,
  );
  note(`Keystream holds ${String(authenticated.sockets)} push socket(s) after the client's`);
}

/**
 * The id (X-Request-ID, which Keystream takes as its request id) of the first request to `path`
 * the client sent after it logged `message`, in its log from `offset` on.
 */
function requestAfter(client: ClientRun, offset: number, message: string, path: string): string | undefined {
  const log = logSince(client, offset);
  const at = log.indexOf(`Received push notification: "${message}"`);
  if (at < 0) return undefined;
  return new RegExp(`"([0-9a-f-]{36}): Request: GET \\S+${escapeRegExp(path)}`).exec(log.slice(at))?.[1];
}

/**
 * `./occ activity:publish` (another process) for the user: the client is told `notify_activity`,
 * and the activity request it sends then reaches Keystream within 2 s of the publish's
 * acknowledgement (the command's exit), and its answer carries the activity.
 */
export async function assertPublishFetchedAtOnce(
  stage: Stage,
  client: ClientRun,
  activity: { object_name: string },
): Promise<number> {
  const logOffset = client.log().length;
  stage.keystream.occ(["activity:publish", `--json=${JSON.stringify(activity)}`]);
  const acknowledged = Date.now();
  const requestId = await waitFor(
    "the client's activity request after notify_activity",
    () => requestAfter(client, logOffset, "notify_activity", "/ocs/v2.php/apps/activity/api/v2/activity?"),
    30_000,
  );
  const request = await waitFor(
    "the request in Keystream's log",
    () => stage.keystream.requests().find((r) => r.reqId === requestId),
    10_000,
  );
  const afterMs = arrival(request.entries) - acknowledged;
  note(`the client's activity request came ${afterMs} ms after ./occ activity:publish returned: ${request.url}`);
  assert.equal(request.status, 200);
  assert.ok(afterMs <= 2000, `the activity request came ${afterMs} ms after the publish (at most 2000)`);
  const name = activity.object_name.replace(/^\//, "");
  await waitFor(
    "the client to receive the pushed activity",
    () => new RegExp(`Response: GET 200 \\S+activity\\?.* Data: .*${escapeRegExp(name)}`).test(logSince(client, logOffset)),
    10_000,
  );
  return afterMs;
}

/**
 * With push on, a quiet minute (the client's refresh timer runs every 60 s at the least:
 * `notificationRefreshInterval`, nextcloud/desktop `src/libsync/configfile.cpp`) brings no
 * activity request, and no notifications request either; the socket stays open through it.
 */
export async function assertQuietMinute(stage: Stage, client: ClientRun): Promise<void> {
  // The refresh the last push caused (its pages) has ended well before.
  await delay(3000);
  const start = Date.now();
  const logOffset = client.log().length;
  await delay(61_000);
  const since = (path: string) => requestsTo(stage, "GET", path).filter((r) => r.at >= start);
  assert.deepEqual(since(ACTIVITY_PATH), [], "no activity request in the quiet minute");
  assert.deepEqual(since(NOTIFICATIONS_PATH), [], "no notifications request");
  const log = logSince(client, logOffset);
  assert.doesNotMatch(log, /Disconnected from websocket/);
  assert.doesNotMatch(log, /JsonApiJob created for .*api\/v2\/activity/);
}

/** Whether this Keystream has `./occ notification:generate` (the notifications API). */
export function hasNotificationGenerate(stage: Stage): boolean {
  return /^\s*notification:generate\b/m.test(stage.keystream.occ(["list"]));
}

/**
 * `./occ notification:generate UID SHORT`: the client is told `notify_notification`, then asks for
 * its notifications (nextcloud/desktop `User::slotReceivedPushNotification`), and gets the message.
 */
export async function assertNotificationReachesClient(
  stage: Stage,
  client: ClientRun,
  uid: string,
  message: string,
): Promise<void> {
  const logOffset = client.log().length;
  stage.keystream.occ(["notification:generate", uid, message]);
  const acknowledged = Date.now();
  const requestId = await waitFor(
    "the client's notifications request after notify_notification",
    () => requestAfter(client, logOffset, "notify_notification", NOTIFICATIONS_PATH),
    30_000,
  );
  const request = await waitFor(
    "the request in Keystream's log",
    () => stage.keystream.requests().find((r) => r.reqId === requestId),
    10_000,
  );
  note(
    `the client's notifications request came ${arrival(request.entries) - acknowledged} ms after ./occ notification:generate returned`,
  );
  assert.equal(request.status, 200);
  await waitFor(
    "the client to receive the notification",
    () => new RegExp(`Response: GET 200 \\S+notifications.* Data: .*${escapeRegExp(message)}`).test(logSince(client, logOffset)),
    10_000,
  );
}
