import type { Clock } from "../clock.js";
import { orderedBuckets, type ThrottleBucket } from "../security/domain/throttle-policy.js";
import type { Settlement } from "../security/ports.js";
import { type AuthenticatedClient, authenticateRequestClient } from "./client-authentication.js";
import { OAuthError } from "./domain/errors.js";
import { GRANTS } from "./grants/index.js";
import type { GrantDeps, GrantResult } from "./grants/types.js";
import { stringParam } from "./params.js";
import type { ClientStore, PendingSettlement, ReadAhead, ReadAheadPlan, TokenGate } from "./ports.js";
import { clientsWithReadAhead, grantsWithReadAhead, readAheadPlan } from "./read-ahead.js";
import { markRegisteredClientUsed } from "./registration.js";
import type { TokenRequest } from "./token-request.js";

export type { TokenRequest } from "./token-request.js";

/** What the token endpoint's steps use: its gate, the clients, the clock, and the grants' dependencies as of now. */
export interface TokenEndpointDeps {
  gate: TokenGate;
  clients: ClientStore;
  clock: Clock;
  grantDeps(request: TokenRequest): GrantDeps;
}

/**
 * The HTTP side of the throttle's steps (http/throttling.ts): the metrics, the log, and the wait,
 * which goes through the app's injectable sleep.
 */
export interface TokenPacing {
  refused(): void;
  /** Waits `ms` (more than 0) before the attempt goes on. */
  delay(ms: number): Promise<void>;
  /** Giving back the reservation of an attempt that threw failed too (the attempt's error is the one reported). */
  releaseFailed(error: unknown): void;
}

/** The endpoint's answer: 429 with Retry-After, or the grant's tokens or error (RFC 6749 §5.1, §5.2). */
export type TokenAnswer = { refused: true; retryAfterSeconds: number } | { refused: false; value: GrantResult };

/** One request on its way through the steps. */
interface TokenContext {
  /** The request as the HTTP layer parsed it, or its refusal (answered after the reservation, like any other). */
  readonly input: TokenRequest | OAuthError;
  readonly buckets: ThrottleBucket[];
  readonly pacing: TokenPacing;
  request?: TokenRequest;
  grantType?: string;
  plan?: ReadAheadPlan | undefined;
  /** Reserved and not yet settled: an error thrown now gives the reservation back. */
  reserved: boolean;
  delayMs: number;
  readAhead?: ReadAhead | undefined;
  client?: AuthenticatedClient;
  result?: GrantResult;
  /** The grant's write committed the success's settlement with the tokens. */
  settledByWrite: boolean;
}

type TokenStep = (ctx: TokenContext, deps: TokenEndpointDeps) => Promise<TokenAnswer | undefined> | TokenAnswer | undefined;

/** The grant type is present; the plan of the first read (read-ahead.ts). */
function parse(ctx: TokenContext): undefined {
  if (ctx.input instanceof OAuthError) {
    ctx.result = ctx.input;
    return;
  }
  ctx.request = ctx.input;
  ctx.grantType = stringParam(ctx.input.body, "grant_type");
  if (ctx.grantType === undefined) ctx.result = new OAuthError("invalid_request");
  else ctx.plan = readAheadPlan(ctx.input);
}

/** The throttle's reservation, before anything is checked, with the first read; refused: 429. */
async function reserveAndRead(ctx: TokenContext, deps: TokenEndpointDeps): Promise<TokenAnswer | undefined> {
  const reservation = await deps.gate.reserve(ctx.buckets, ctx.plan);
  if (!reservation.admitted) {
    ctx.pacing.refused();
    return { refused: true, retryAfterSeconds: reservation.retryAfterSeconds };
  }
  ctx.reserved = true;
  ctx.delayMs = reservation.delayMs;
  ctx.readAhead = reservation.readAhead;
  return undefined;
}

/** The delay the attempt's position owes; what was read before it may be stale by then. */
async function delay(ctx: TokenContext): Promise<undefined> {
  if (ctx.delayMs <= 0) return;
  await ctx.pacing.delay(ctx.delayMs);
  ctx.readAhead = undefined;
}

/** Client authentication (client-authentication.ts), on the client read ahead (read again after a delay). */
async function authenticateClient(ctx: TokenContext, deps: TokenEndpointDeps): Promise<undefined> {
  if (ctx.result || !ctx.request) return;
  if (ctx.plan && !ctx.readAhead) ctx.readAhead = await deps.gate.read(ctx.plan);
  const authenticated = await authenticateRequestClient(clientsWithReadAhead(deps.clients, ctx.readAhead), ctx.request);
  if (authenticated instanceof OAuthError) ctx.result = authenticated;
  else ctx.client = authenticated;
}

/**
 * The grant (grants/), given only the parameters it declares; its write commits the success's
 * settlement with the tokens it issues. A self-registered client's use is recorded (registration.ts).
 */
async function grant(ctx: TokenContext, deps: TokenEndpointDeps): Promise<undefined> {
  const { request, client } = ctx;
  if (ctx.result || !request || !client) return;
  const grant = GRANTS.get(ctx.grantType ?? "");
  if (!grant) {
    ctx.result = new OAuthError("invalid_grant", "unhandled grant type");
    return;
  }
  const grantDeps = deps.grantDeps(request);
  const grants = grantsWithReadAhead(grantDeps.grants, ctx.readAhead, pendingFor(ctx, "success", grantDeps.now));
  const params = Object.fromEntries([...grant.parameters].map((name) => [name, stringParam(request.body, name)]));
  ctx.result = await grant.handle(
    { ...grantDeps, grants: grants.store },
    { client: client.client, method: client.method, params, userAgent: request.userAgent, origin: request.origin },
  );
  ctx.settledByWrite = grants.settlementCommitted;
  if (ctx.result instanceof OAuthError) return;
  // A use of a self-registered client (RFC 7591), for the cleanup of unused ones. The tokens are
  // issued by now: a failed write is logged, never turned into a failed response.
  await markRegisteredClientUsed(deps.clients, client.client, grantDeps.now).catch((error: unknown) => {
    grantDeps.log.warn(
      { event: "oauth2_client_use_not_recorded", client: client.client.clientId, err: error },
      "client use not recorded",
    );
  });
}

/**
 * The reservation settled with the outcome, unless the grant's write did: guessing (unknown client,
 * wrong secret, unknown code or token) counts as a failure and slows the next attempt down; a
 * success resets the address's count; anything else only gives the reservation back.
 */
async function settle(ctx: TokenContext, deps: TokenEndpointDeps): Promise<undefined> {
  ctx.reserved = false;
  const { result } = ctx;
  if (result instanceof OAuthError) {
    await deps.gate.settle(pendingFor(ctx, result.guess ? "failure" : "release", deps.clock.nowSeconds()));
  } else if (!ctx.settledByWrite) {
    await deps.gate.settle(pendingFor(ctx, "success", deps.clock.nowSeconds()));
  }
}

function respond(ctx: TokenContext): TokenAnswer {
  if (!ctx.result) throw new Error("the token endpoint's steps ended without a result");
  return { refused: false, value: ctx.result };
}

/**
 * `POST …/api/v1/token` (docs/upstream/owncloud-oauth2.md A.1.2), as a list of named steps in the
 * manner of node-oidc-provider's lib/actions/token.js. A step that answers ends the list; a step
 * after a refusal passes it on (it is still settled and answered).
 */
const TOKEN_STEPS: readonly TokenStep[] = [parse, reserveAndRead, delay, authenticateClient, grant, settle, respond];

/** Runs the steps; an error thrown between the reservation and its settlement gives the reservation back. */
export async function handleTokenRequest(
  deps: TokenEndpointDeps,
  input: TokenRequest | OAuthError,
  buckets: ThrottleBucket[],
  pacing: TokenPacing,
): Promise<TokenAnswer> {
  const ctx: TokenContext = { input, buckets, pacing, reserved: false, delayMs: 0, settledByWrite: false };
  try {
    for (const step of TOKEN_STEPS) {
      const answer = await step(ctx, deps);
      if (answer) return answer;
    }
  } catch (error) {
    if (ctx.reserved) {
      await deps.gate.settle(pendingFor(ctx, "release", deps.clock.nowSeconds())).catch((releaseError: unknown) => {
        pacing.releaseFailed(releaseError);
      });
    }
    throw error;
  }
  throw new Error("the token endpoint's steps gave no answer");
}

/** The request's settlement as `kind`, over its buckets in the order their rows are locked. */
function pendingFor(ctx: TokenContext, kind: Settlement["kind"], now: number): PendingSettlement {
  const keys = orderedBuckets(ctx.buckets).map((bucket) => bucket.key);
  const settlement: Settlement = kind === "success" ? { kind, resetKeys: keys } : { kind };
  return { keys, settlement, now };
}
