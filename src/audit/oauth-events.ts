import type { AuditTrail } from "./recorder.js";

/** A client as the OAuth service's events name it (oauth/service.ts OAuthEvents). */
interface EventClient {
  id: string;
  name: string;
}

type ClientListener = (uid: string, client: EventClient) => Promise<void>;
interface ClientEvents {
  clientAuthorized: ClientListener;
  clientRevoked: ClientListener;
}

/**
 * The OAuth service's events (structurally its OAuthEvents, as activity/security-events.ts does)
 * into the audit log: a grant authorized (consent, trusted skip, device approval) and revoked.
 */
export function auditOAuthEvents(audit: AuditTrail): ClientEvents {
  return {
    async clientAuthorized(uid, client) {
      audit.record("oauth.client_authorized", { uid, subject: { type: "client", id: client.id }, detail: { name: client.name } });
    },
    async clientRevoked(uid, client) {
      audit.record("oauth.grant_revoked", { uid, subject: { type: "client", id: client.id }, detail: { name: client.name } });
    },
  };
}

/** Several listeners as one; each is told in turn, a failing one does not keep the next from being told. */
export function eventListeners(...listeners: ClientEvents[]): ClientEvents {
  const all =
    (event: keyof ClientEvents): ClientListener =>
    async (uid, client) => {
      const failures: unknown[] = [];
      for (const listener of listeners) {
        try {
          await listener[event](uid, client);
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length > 0) throw failures[0];
    };
  return { clientAuthorized: all("clientAuthorized"), clientRevoked: all("clientRevoked") };
}
