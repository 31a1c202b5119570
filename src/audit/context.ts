import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Who acts and from where, for the audit events recorded while a request (or an occ command)
 * runs: set once by the front end that starts the work (the HTTP app's `onRequest` hook, occ's
 * runner) and read by the recorder, so no domain method carries it as a parameter
 * (docs/decisions.md "Audit log: the request context").
 */
export interface AuditContext {
  /** The acting user once known (read when an event is recorded: the request's principal is found after the hook). */
  actor(): string | undefined;
  address?: string | undefined;
  userAgent?: string | undefined;
  requestId?: string | undefined;
}

const contexts = new AsyncLocalStorage<AuditContext>();

/** Runs `work` (and everything it awaits or schedules) in `context`. */
export function runInAuditContext<T>(context: AuditContext, work: () => T): T {
  return contexts.run(context, work);
}

/** Requests in flight that run in a context (runRequestInAuditContext). */
let requestsInContext = 0;

/**
 * Runs a request's `work` in `context` until `finished` is called (once, when its answer is sent or
 * the connection closes). On Node 20 an enabled AsyncLocalStorage makes every promise of the
 * process pay for a hook (≈ 6–10 % of a token exchange's CPU, docs/performance.md), so the storage
 * is switched off whenever no such request is in flight: requests that never record through a
 * domain service (the token endpoint, UserInfo, the activity API, forward auth) run outside it and
 * then pay nothing.
 */
export function runRequestInAuditContext(context: AuditContext, work: () => void): () => void {
  requestsInContext++;
  let open = true;
  contexts.run(context, work);
  return () => {
    if (!open) return;
    open = false;
    requestsInContext--;
    if (requestsInContext === 0) contexts.disable();
  };
}

/** The context of the work running now, if a front end set one. */
export function currentAuditContext(): AuditContext | undefined {
  return contexts.getStore();
}
