import { sha256Hex } from "../crypto/secrets.js";
import { namedClientId } from "./client-authentication.js";
import { stringParam } from "./params.js";
import type { ClientStore, GrantStore, PendingSettlement, ReadAhead, ReadAheadPlan } from "./ports.js";
import type { TokenRequest } from "./token-request.js";

/**
 * The token endpoint reads the client a request names and the code or refresh token it presents in
 * one statement, with the throttle's reservation where the database can (TokenGate). Nothing is
 * decided on the read: client authentication and the grant run their checks in their order, each
 * on the row it would have read itself, found here instead of asked for. (The artefact's row is
 * read before the client's secret is compared; reading it has no effect, and a request that fails
 * authentication never looks at it.)
 */

/** The plan for a code exchange or a refresh that names a client; undefined for anything else. */
export function readAheadPlan(request: TokenRequest): ReadAheadPlan | undefined {
  const grantType = stringParam(request.body, "grant_type");
  const clientId = namedClientId(request);
  if (clientId === undefined) return undefined;
  const code = grantType === "authorization_code" ? stringParam(request.body, "code") : undefined;
  if (code !== undefined) return { clientId, codeHash: sha256Hex(code) };
  const token = grantType === "refresh_token" ? stringParam(request.body, "refresh_token") : undefined;
  if (token !== undefined) return { clientId, refreshTokenHash: sha256Hex(token) };
  return undefined;
}

/** The client store as client authentication sees it: the client read ahead, else the store. */
export function clientsWithReadAhead(clients: ClientStore, ahead: ReadAhead | undefined): Pick<ClientStore, "findByClientId"> {
  if (!ahead) return clients;
  return {
    findByClientId: (clientId) =>
      clientId === ahead.clientId ? Promise.resolve(ahead.client) : clients.findByClientId(clientId),
  };
}

/** The grant store as one token request's grant sees it, and whether its write committed the settlement. */
export interface RequestGrants {
  store: GrantStore;
  settlementCommitted: boolean;
}

/**
 * The grant store for one token request's grant: the code or refresh token read ahead is answered
 * from the read, and a redemption or rotation that issues tokens commits `settle` (a success's
 * throttle settlement) in its own write. Every other method is the store's.
 */
export function grantsWithReadAhead(grants: GrantStore, ahead: ReadAhead | undefined, settle: PendingSettlement): RequestGrants {
  const view: RequestGrants = { store: Object.create(grants) as GrantStore, settlementCommitted: false };
  const overrides: Pick<GrantStore, "findCode" | "findRefreshToken" | "redeemCode" | "rotateRefreshToken"> = {
    findCode: (hash) => (ahead?.code?.hash === hash ? Promise.resolve(ahead.code.record) : grants.findCode(hash)),
    findRefreshToken: (hash) =>
      ahead?.refreshToken?.hash === hash ? Promise.resolve(ahead.refreshToken.record) : grants.findRefreshToken(hash),
    redeemCode: async (hash, now, tokens, options) => {
      const redeemed = await grants.redeemCode(hash, now, tokens, { ...options, settle });
      if (redeemed && tokens) view.settlementCommitted = true;
      return redeemed;
    },
    rotateRefreshToken: async (record, now, tokens, grace) => {
      const rotated = await grants.rotateRefreshToken(record, now, tokens, grace, settle);
      if (rotated) view.settlementCommitted = true;
      return rotated;
    },
  };
  Object.assign(view.store, overrides);
  return view;
}
