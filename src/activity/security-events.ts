import type { ActivityService } from "./service.js";

/**
 * The authorization service's own events in the user's stream (so that a user sees who has
 * access to the account): app `oauth2`, type `security`. The OAuth module calls these with the
 * user concerned and the client's display name; they never throw for a vanished user (the
 * event is then dropped and the failure logged by the caller if it wants to).
 */
export interface ClientEvent {
  uid: string;
  clientName: string;
  /**
   * The acting user (the one who authorized or revoked); defaults to `uid`. An admin revoking via
   * occ passes ''.
   */
  actor?: string;
  /** Epoch seconds; defaults to the service clock. */
  at?: number;
}

function event(subject: "client_authorized" | "client_revoked", e: ClientEvent) {
  return {
    app: "oauth2",
    type: "security",
    affecteduser: e.uid,
    user: e.actor ?? e.uid,
    subject,
    subjectparams: [{ type: "parameter", value: e.clientName.slice(0, 4000) }],
    ...(e.at === undefined ? {} : { datetime: e.at }),
  };
}

export async function publishClientAuthorized(activity: ActivityService, e: ClientEvent): Promise<number[]> {
  return activity.publishOrThrow(event("client_authorized", e));
}

export async function publishClientRevoked(activity: ActivityService, e: ClientEvent): Promise<number[]> {
  return activity.publishOrThrow(event("client_revoked", e));
}

/**
 * The listener the OAuth service takes as its `events` option (structurally its OAuthEvents; this
 * module does not import src/oauth), with the audit log's and notifications' (src/services.ts).
 */
export function oauthActivityEvents(activity: ActivityService) {
  return {
    async clientAuthorized(uid: string, client: { id: string; name: string }): Promise<void> {
      await publishClientAuthorized(activity, { uid, clientName: client.name });
    },
    async clientRevoked(uid: string, client: { id: string; name: string }): Promise<void> {
      await publishClientRevoked(activity, { uid, clientName: client.name });
    },
  };
}
