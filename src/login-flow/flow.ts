/**
 * Nextcloud's Login Flow v2 (issue 13; research nextcloud-desktop-client.md §2): the rules of a
 * flow, with no HTTP and no database. A client starts a flow and gets a poll token and a login URL;
 * the user opens the URL, logs in and grants (or cancels); the client's next poll receives the
 * server, the login name and a new app password, exactly once.
 */

/** A flow lives 20 minutes from its creation, as in Nextcloud's LoginFlowV2Service. */
export const LOGIN_FLOW_LIFETIME_SECONDS = 20 * 60;

/**
 * Both tokens: 128 characters of [A-Za-z0-9], Nextcloud's length (about 762 bits): unguessable, so
 * the poll throttle is a brake on floods, not what keeps a flow secret.
 */
export const LOGIN_FLOW_TOKEN_LENGTH = 128;

/** The app password's name when the client sent no User-Agent. */
export const UNNAMED_CLIENT = "Unknown client";

/** The longest app-password name (accounts/app-passwords.ts refuses longer ones). */
const MAX_CLIENT_NAME_LENGTH = 255;

/**
 * The application's name, shown on the grant page and given to the app password: the User-Agent of
 * the request that started the flow (Nextcloud's ClientFlowLoginV2Controller does the same; the
 * desktop client sends `<hostname> (Desktop Client - Linux)`). Control characters are dropped and
 * the length capped, so any header makes a valid name.
 */
export function clientNameOf(userAgent: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  const cleaned = (userAgent ?? "").replace(/[\u0000-\u001f\u007f]/g, " ").trim();
  return cleaned === "" ? UNNAMED_CLIENT : cleaned.slice(0, MAX_CLIENT_NAME_LENGTH).trim();
}

/** The oldest `created_at` still live at `now`. */
export function liveSince(now: number): number {
  return now - LOGIN_FLOW_LIFETIME_SECONDS;
}

/** A new flow as the client gets it (the tokens in clear, once). */
export interface StartedFlow {
  pollToken: string;
  loginToken: string;
}

/** What the browser side knows about a live, pending flow. */
export interface PendingFlow {
  clientName: string;
}

/**
 * A poll's outcome. `granted`: the credentials, delivered this once. `waiting`: the flow exists
 * (pending, or already expired or cancelled and not yet purged): a legitimate client's poll,
 * answered 404 without counting against its address. `unknown`: no such flow: what guessing
 * produces, counted by the poll throttle (docs/decisions.md).
 */
export type PollOutcome = { kind: "granted"; loginName: string; appPassword: string } | { kind: "waiting" } | { kind: "unknown" };

/** What a grant needs to create the app password inside the grant's own transaction. */
export interface AppPasswordIssuer {
  create(uid: string, name: string): Promise<{ appPassword: { id: number }; secret: string }>;
}

/** What the grant records on the flow. */
export interface GrantRecord {
  uid: string;
  loginName: string;
  appPasswordId: number;
  sealedAppPassword: string;
}

/**
 * The flows' storage (storage/login-flow-store.ts). Tokens arrive hashed; `liveSince` is the
 * oldest creation time still live. Every state change is one conditional statement (or one
 * transaction), so concurrent requests on any node cannot both win.
 */
export interface LoginFlowStore {
  insert(flow: { pollTokenHash: string; loginTokenHash: string; clientName: string; createdAt: number }): Promise<void>;
  findPending(loginTokenHash: string, liveSince: number): Promise<PendingFlow | undefined>;
  /**
   * In one transaction: claims the live pending flow (pending → granted), runs `issue` with an
   * issuer writing in that transaction and the flow's client name, and records its result. False,
   * with nothing written, when the flow is not live and pending.
   */
  grant(
    loginTokenHash: string,
    liveSince: number,
    issue: (issuer: AppPasswordIssuer, clientName: string) => Promise<GrantRecord>,
  ): Promise<boolean>;
  /** pending → cancelled; false when the flow was not live and pending. */
  cancel(loginTokenHash: string, liveSince: number): Promise<boolean>;
  /** Deletes a live granted flow and returns what it held: one statement, so only one poll gets it. */
  redeem(pollTokenHash: string, liveSince: number): Promise<{ loginName: string; sealedAppPassword: string } | undefined>;
  exists(pollTokenHash: string): Promise<boolean>;
  /**
   * Deletes the flows created before `liveSince`, and the app passwords of those that were granted
   * and never polled (nobody received them). Returns how many flows went.
   */
  purgeExpired(liveSince: number): Promise<number>;
}
