import type { NewAppPasswordRecord } from "../accounts/ports.js";

/** What the browser side knows about a live, pending flow. */
export interface PendingFlow {
  /** The name the application gave itself (flow.ts clientNameOf): its claim, not checked. */
  clientName: string;
  /** When the flow was started (epoch seconds). */
  startedAt: number;
  /** The address it was started from; null for a flow stored before addresses were. */
  startedFrom: string | null;
}

/**
 * What a grant writes: the app password for the client (its record, hashed, ready to insert) and,
 * on the flow, who granted it and the secret sealed until the poll.
 */
export interface FlowGrant {
  uid: string;
  loginName: string;
  appPassword: NewAppPasswordRecord;
  sealedAppPassword: string;
}

/**
 * Login Flow v2 flows (table login_flows). Tokens arrive as SHA-256 hex digests; `liveSince` is
 * the oldest creation time still live (flow.ts liveSince). Every state change is one conditional
 * statement or one transaction, so of two concurrent requests on any nodes only one wins.
 */
export interface LoginFlowStore {
  /** Inserts a pending flow. */
  insert(flow: {
    pollTokenHash: string;
    loginTokenHash: string;
    clientName: string;
    clientAddress: string;
    createdAt: number;
  }): Promise<void>;
  /** The flow behind `loginTokenHash` when it is live and pending, else undefined. */
  findPending(loginTokenHash: string, liveSince: number): Promise<PendingFlow | undefined>;
  /**
   * In one transaction: claims the live pending flow (pending → granted; on PostgreSQL the claim's
   * row lock makes a concurrent grant or cancel wait and then find it no longer pending), asks
   * `grantFor` what to write for the flow's client name, inserts that app password and records
   * the grant with its id on the flow. False, with nothing written, when the flow is not live and
   * pending; when `grantFor` throws, the transaction rolls back and the flow stays pending.
   */
  grant(loginTokenHash: string, liveSince: number, grantFor: (clientName: string) => FlowGrant): Promise<boolean>;
  /** pending → cancelled; false when the flow was not live and pending. */
  cancel(loginTokenHash: string, liveSince: number): Promise<boolean>;
  /**
   * Deletes a live granted flow and returns what it held, in one statement, so of concurrent polls
   * only one gets it. Undefined when there is no live granted flow for `pollTokenHash`.
   */
  redeem(pollTokenHash: string, liveSince: number): Promise<{ loginName: string; sealedAppPassword: string } | undefined>;
  /** True when a flow with this poll token exists in any state, live or not yet purged. */
  exists(pollTokenHash: string): Promise<boolean>;
  /**
   * In one transaction: deletes the flows created at or before `liveSince`, and the app passwords
   * of those that were granted and never polled (nobody received them). Returns how many rows went
   * (app passwords and flows).
   */
  purgeExpired(liveSince: number): Promise<number>;
}
