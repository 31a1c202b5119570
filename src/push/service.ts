import type { EndedSessions, SessionEndObserver } from "../accounts/ports.js";
import type { Clock } from "../clock.js";
import type { ValueSigner } from "../crypto/value-signer.js";
import { eventsForActivities, type PublishedActivity, type PushEvent } from "./domain/events.js";
import { AUTHENTICATION_TIMEOUT_MS } from "./handshake.js";
import { PushHub, type PushHubOptions } from "./hub.js";
import type { PushChannel } from "./ports.js";
import { PreAuthTokens } from "./pre-auth.js";

/**
 * Push (nextcloud/notify_push's protocol, built in): this node's hub of sockets, pre-auth tokens,
 * and what the rest of the product tells it. Every publish is best effort: a failure is reported
 * to `onError` and never fails the act that caused it (the activity, the revocation stand).
 */
export class PushService implements SessionEndObserver {
  readonly hub: PushHub;
  readonly preAuth: PreAuthTokens;
  /** How long a new socket has to authenticate (ms); tests shorten it. */
  authenticationTimeoutMs = AUTHENTICATION_TIMEOUT_MS;

  constructor(
    channel: PushChannel,
    signer: ValueSigner,
    clock: Clock,
    private readonly onError: (error: unknown) => void,
    options: PushHubOptions = {},
  ) {
    this.hub = new PushHub(channel, options);
    this.preAuth = new PreAuthTokens(signer, () => clock.nowSeconds());
  }

  /** Activities written: `notify_activity` (and `notify_file`/`notify_file_id` for files) to their users. */
  activitiesWritten(rows: readonly PublishedActivity[]): Promise<void> {
    return this.publish(eventsForActivities(rows));
  }

  /** A notification of the user was added or dismissed: `notify_notification` to their sockets. */
  notificationsChanged(uid: string): Promise<void> {
    return this.publish([{ kind: "notification", uid }]);
  }

  /** The user's app passwords were revoked: their sockets close, on every node. */
  credentialsEnded(uid: string): Promise<void> {
    return this.publish([{ kind: "end", uid }]);
  }

  /**
   * Every session of a user ended by an administrator (disabled or deleted: accounts/users.ts):
   * their sockets close too. A logout, or "sign out other sessions", leaves app passwords alone.
   */
  async sessionsEnded(ended: EndedSessions): Promise<void> {
    if ("uid" in ended && ended.exceptSessionIdHash === undefined) await this.credentialsEnded(ended.uid);
  }

  private async publish(events: readonly PushEvent[]): Promise<void> {
    await this.hub.publish(events).catch(this.onError);
  }
}
