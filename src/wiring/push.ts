import { PushService } from "../push/service.js";
import { openPushChannel } from "../storage/stores/push/push-channel.js";
import type { Foundation } from "./foundation.js";

/**
 * Push (nextcloud/notify_push's protocol): activities written, notifications changed and
 * credentials ended reach the users' sockets on every node, through the database's channel.
 */
export function wirePush({ storage, signer, clock, log }: Pick<Foundation, "storage" | "signer" | "clock" | "log">): PushService {
  return new PushService(
    openPushChannel(storage, (error) => log.warn({ event: "push_channel_failed", err: error }, "push channel lost")),
    signer("push pre-auth"),
    clock,
    (error) => log.warn({ event: "push_publish_failed", err: error }, "push event not published"),
  );
}
