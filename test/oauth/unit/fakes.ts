import assert from "node:assert/strict";
import { sha256Hex } from "../../../src/crypto/secrets.js";
import { OAuthError } from "../../../src/oauth/domain/errors.js";
import type { GrantDeps, GrantInput } from "../../../src/oauth/grants/types.js";
import type {
  AccessTokenRecord,
  ClientStore,
  CodeRecord,
  GracePair,
  GrantStore,
  NewTokens,
  OAuthClient,
  RefreshTokenRecord,
} from "../../../src/oauth/ports.js";
import type { EventLog, TokenRequest } from "../../../src/oauth/token-request.js";
import type { TokenResponse } from "../../../src/oauth/tokens.js";
import { MemoryClientStore } from "../../support/memory/oauth-clients.js";
import { MemoryTables } from "../../support/memory/tables.js";

/**
 * In-memory stand-ins for the OAuth ports, for tests that run a rule without booting the app or a
 * database. Each fake implements only the methods the code under test calls, and keeps what it was
 * asked (`calls`) so a test can say what was and was not revoked.
 */

export const NOW = 1_800_000_000;
export const REFRESH_LIFETIME = 90 * 86_400;
export const REDIRECT_URI = "https://app.example/callback";

export function client(id: number, overrides: Partial<OAuthClient> = {}): OAuthClient {
  return {
    id,
    name: `Client ${id}`,
    clientId: `client-${id}-${"x".repeat(32)}`,
    secret: `secret-${id}-${"s".repeat(32)}`,
    redirectUri: REDIRECT_URI,
    allowSubdomains: false,
    trusted: false,
    resourceServer: false,
    ...overrides,
  };
}

export const WEB = client(1);
export const OTHER = client(2);

/** A client store (the memory one, test/support/memory/oauth-clients.ts) that holds the given clients. */
export function clientStore(...clients: OAuthClient[]): ClientStore {
  const store = new MemoryClientStore(new MemoryTables());
  for (const c of clients) store.keep(c);
  return store;
}

export function basicHeader(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`;
}

/** The grant store's state and the calls made to it. */
export class FakeGrants {
  readonly codes = new Map<string, CodeRecord>();
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();
  readonly accessTokens = new Map<string, AccessTokenRecord>();
  readonly gracePairs = new Map<number, GracePair>();
  readonly issued: NewTokens[] = [];
  readonly revokedGrants: number[] = [];
  readonly revokedAccessTokens: number[] = [];
  /** Method names in call order (lookups included), for the order a hint decides. */
  readonly calls: string[] = [];
  /** When false, the next single-use write loses its compare-and-set (a concurrent request won). */
  winNextCompareAndSet = true;
  private nextId = 100;

  /** The fake as the grant store the code under test takes. */
  get store(): GrantStore {
    const partial: Partial<GrantStore> = {
      findCode: async (hash) => {
        this.calls.push("findCode");
        return this.codes.get(hash);
      },
      redeemCode: async (hash, _now, tokens) => {
        this.calls.push("redeemCode");
        const code = this.codes.get(hash);
        if (!code || code.consumed || !this.takeCompareAndSet()) return false;
        this.codes.set(hash, { ...code, consumed: true });
        if (tokens) this.issued.push(tokens);
        return true;
      },
      findRefreshToken: async (hash) => {
        this.calls.push("findRefreshToken");
        return this.refreshTokens.get(hash);
      },
      rotateRefreshToken: async (record, _now, tokens, grace) => {
        this.calls.push("rotateRefreshToken");
        const stored = [...this.refreshTokens.entries()].find(([, r]) => r.id === record.id);
        if (!stored || stored[1].rotated || !this.takeCompareAndSet()) return false;
        this.refreshTokens.set(stored[0], { ...stored[1], rotated: true });
        this.issued.push(tokens);
        if (grace) this.gracePairs.set(record.id, grace);
        return true;
      },
      findGracePair: async (rotatedId, now) => {
        this.calls.push("findGracePair");
        const pair = this.gracePairs.get(rotatedId);
        return pair && now < pair.expiresAt ? pair.sealed : undefined;
      },
      revokeGrant: async (grantId) => {
        this.calls.push("revokeGrant");
        this.revokedGrants.push(grantId);
        return true;
      },
      findAccessToken: async (hash) => {
        this.calls.push("findAccessToken");
        return this.accessTokens.get(hash);
      },
      revokeAccessToken: async (id) => {
        this.calls.push("revokeAccessToken");
        this.revokedAccessTokens.push(id);
        return true;
      },
    };
    return partial as unknown as GrantStore;
  }

  private takeCompareAndSet(): boolean {
    const win = this.winNextCompareAndSet;
    this.winNextCompareAndSet = true;
    return win;
  }

  /** Stores a code issued to `owner` under grant `grantId`; returns the plain code. */
  addCode(owner: OAuthClient, overrides: Partial<CodeRecord> = {}, plain = `code-${this.nextId++}`): string {
    this.codes.set(sha256Hex(plain), {
      grantId: 7,
      clientInternalId: owner.id,
      uid: "alice",
      challenge: null,
      challengeMethod: null,
      redirectUri: REDIRECT_URI,
      expiresAt: NOW + 600,
      consumed: false,
      userEnabled: true,
      scope: null,
      authTime: null,
      nonce: null,
      ...overrides,
    });
    return plain;
  }

  /** Stores a refresh token of `owner` under grant `grantId`; returns the plain token. */
  addRefreshToken(owner: OAuthClient, overrides: Partial<RefreshTokenRecord> = {}, plain = `refresh-${this.nextId++}`): string {
    this.refreshTokens.set(sha256Hex(plain), {
      id: this.nextId++,
      grantId: 7,
      clientInternalId: owner.id,
      clientId: owner.clientId,
      uid: "alice",
      accessTokenId: null,
      createdAt: NOW - 60,
      expiresAt: NOW + REFRESH_LIFETIME,
      rotated: false,
      publicClient: false,
      userEnabled: true,
      scope: null,
      authTime: null,
      nonce: null,
      ...overrides,
    });
    return plain;
  }

  /** Stores an access token of `owner`; returns the plain token. */
  addAccessToken(owner: OAuthClient, overrides: Partial<AccessTokenRecord> = {}, plain = `access-${this.nextId++}`): string {
    this.accessTokens.set(sha256Hex(plain), {
      id: this.nextId++,
      scope: null,
      grantId: 7,
      uid: "alice",
      clientId: owner.clientId,
      createdAt: NOW - 60,
      expiresAt: NOW + 3600,
      ...overrides,
    });
    return plain;
  }
}

/** A log that keeps its events. */
export function eventLog(): EventLog & { events: { level: "info" | "warn"; fields: Record<string, unknown> }[] } {
  const events: { level: "info" | "warn"; fields: Record<string, unknown> }[] = [];
  return {
    events,
    info: (fields) => events.push({ level: "info", fields: fields as Record<string, unknown> }),
    warn: (fields) => events.push({ level: "warn", fields: fields as Record<string, unknown> }),
  };
}

/** A sealer that only marks its envelope (the grace pair's encryption is tested with SecretBox). */
export const plainSealer = {
  encrypt: (plaintext: string) => `sealed:${plaintext}`,
  decrypt: (envelope: string) => {
    if (!envelope.startsWith("sealed:")) throw new Error("not sealed here");
    return envelope.slice("sealed:".length);
  },
};

export function grantDeps(
  grants: FakeGrants,
  overrides: Partial<GrantDeps> = {},
): GrantDeps & { log: ReturnType<typeof eventLog> } {
  return {
    grants: grants.store,
    now: NOW,
    refreshTokenLifetime: REFRESH_LIFETIME,
    refreshReuseGrace: 0,
    sealer: plainSealer,
    log: eventLog(),
    ...overrides,
  } as GrantDeps & { log: ReturnType<typeof eventLog> };
}

/** A grant's input, without the token endpoint's plumbing (read-ahead, the throttle's write). */
export function grantInput(
  caller: OAuthClient,
  params: Record<string, string | undefined>,
  overrides: Partial<Pick<GrantInput, "method" | "userAgent" | "origin">> = {},
): GrantInput {
  return { client: caller, method: "basic", params, userAgent: undefined, ...overrides };
}

export function tokenRequest(body: Record<string, unknown>, authorization?: string): TokenRequest {
  return { body, authorization, userAgent: undefined };
}

/** A grant's refusal; fails the test when the grant issued tokens. */
export function refused(result: unknown): OAuthError {
  assert.ok(result instanceof OAuthError, `expected a refusal, got ${JSON.stringify(result)}`);
  return result;
}

/**
 * The token response of a grant that issued tokens; fails the test on a refusal. Read from
 * `result.response` when the grant answers it with more (what it committed), else the result itself,
 * so these tests check the rules and not the endpoint's plumbing around them.
 */
export function issued(result: unknown): TokenResponse {
  assert.ok(!(result instanceof OAuthError), `expected tokens, got ${JSON.stringify(result)}`);
  const response = (result as { response?: TokenResponse }).response ?? (result as TokenResponse);
  assert.equal(typeof response.access_token, "string", JSON.stringify(result));
  return response;
}
