import type { Clock } from "../clock.js";
import { randomFrom, sha256Hex } from "../crypto/secrets.js";
import { authenticateRequestClient } from "./client-authentication.js";
import {
  DEVICE_CODE_LIFETIME_SECONDS,
  DEVICE_POLL_INTERVAL_SECONDS,
  displayedUserCode,
  mayUseDeviceGrant,
  normalizedUserCode,
  USER_CODE_ALPHABET,
  USER_CODE_LENGTH,
} from "./domain/device-flow.js";
import { OAuthError } from "./domain/errors.js";
import { grantedScope } from "./domain/scope.js";
import { stringParam } from "./params.js";
import type { ClientStore, DeviceAuthorizationRecord, DeviceAuthorizationStore, OAuthClient } from "./ports.js";
import type { EventLog, TokenRequest } from "./token-request.js";
import { newSecretValue } from "./tokens.js";

/** RFC 8628 §3.2: what the device authorization endpoint answers (the HTTP layer adds the URIs). */
export interface DeviceAuthorizationStarted {
  deviceCode: string;
  /** As shown to a person: `WDJB-MJHT`. */
  userCode: string;
  expiresIn: number;
  interval: number;
}

/** What a user code entered on the verification page names (RFC 8628 §3.3). */
export type UserCodeLookup =
  /** Not of the user code's form at all (domain/device-flow.ts): nothing was looked up. */
  | { kind: "malformed" }
  /** No live pending authorization has it: what guessing produces. */
  | { kind: "unknown" }
  | { kind: "pending"; userCode: string; client: OAuthClient; record: DeviceAuthorizationRecord };

/** A new user code is drawn again when the one drawn is taken (20^8 values: practically never twice). */
const USER_CODE_DRAWS = 3;

/**
 * The device authorization grant's two sides outside the token endpoint (RFC 8628): the device
 * authorization request of a client (§3.1, §3.2), and the user's decision on the verification page
 * (§3.3). The token endpoint's side is grants/device-code.ts. Device and user codes are stored as
 * SHA-256 digests only.
 */
export class DeviceAuthorizations {
  constructor(
    private readonly options: {
      clients: ClientStore;
      store: DeviceAuthorizationStore;
      clock: Clock;
      log: EventLog;
      /** Told once per approval, as a consent is (the activity stream). */
      authorized: (uid: string, client: OAuthClient) => Promise<void>;
    },
  ) {}

  /**
   * RFC 8628 §3.1: the client authenticates as at the token endpoint (src/oauth/client-authentication.ts:
   * a secret by Basic or in the body, or client_id alone for a public client); it must be one that
   * may use the grant; its `scope` is judged by the scope catalogue as at the authorization endpoint.
   */
  async start(request: TokenRequest): Promise<DeviceAuthorizationStarted | OAuthError> {
    const authenticated = await authenticateRequestClient(this.options.clients, request);
    if (authenticated instanceof OAuthError) return authenticated;
    const { client, method } = authenticated;
    if (!mayUseDeviceGrant(client)) {
      return new OAuthError("unauthorized_client", "this client may not use the device authorization grant");
    }
    const scope = grantedScope(stringParam(request.body, "scope"), false);
    if (scope === undefined) return new OAuthError("invalid_scope", "no scope this server grants was requested");
    const now = this.options.clock.nowSeconds();
    const deviceCode = newSecretValue();
    for (let draw = 0; draw < USER_CODE_DRAWS; draw++) {
      const userCode = randomFrom(USER_CODE_ALPHABET, USER_CODE_LENGTH);
      const inserted = await this.options.store.insert({
        deviceCodeHash: deviceCode.hash,
        userCodeHash: sha256Hex(userCode),
        clientInternalId: client.id,
        scope,
        publicClient: method === "none",
        now,
        expiresAt: now + DEVICE_CODE_LIFETIME_SECONDS,
        interval: DEVICE_POLL_INTERVAL_SECONDS,
      });
      if (!inserted) continue;
      (request.log ?? this.options.log).info(
        { event: "oauth2_device_authorization", client: client.clientId, scope },
        `A device authorization was started for the client "${client.name}".`,
      );
      return {
        deviceCode: deviceCode.value,
        userCode: displayedUserCode(userCode),
        expiresIn: DEVICE_CODE_LIFETIME_SECONDS,
        interval: DEVICE_POLL_INTERVAL_SECONDS,
      };
    }
    throw new Error(`no free user code in ${USER_CODE_DRAWS} draws`);
  }

  /** The live pending authorization a user code (as typed) names. */
  async lookup(input: string): Promise<UserCodeLookup> {
    const normalized = normalizedUserCode(input);
    if (normalized === undefined) return { kind: "malformed" };
    const record = await this.options.store.findPendingByUserCode(sha256Hex(normalized), this.options.clock.nowSeconds());
    const client = record && (await this.options.clients.findById(record.clientInternalId));
    if (!record || !client) return { kind: "unknown" };
    return { kind: "pending", userCode: displayedUserCode(normalized), client, record };
  }

  /**
   * The user approves (RFC 8628 §3.3): a grant of the client to the user, with the authorization's
   * scope and the session's login time (OIDC Core §2 `auth_time`), and its first code, which the
   * device code's poll redeems. False when the user code no longer names a live pending authorization.
   */
  async approve(input: string, uid: string, authTime: number | null): Promise<boolean> {
    const found = await this.lookup(input);
    if (found.kind !== "pending") return false;
    const code = newSecretValue();
    const approved = await this.options.store.approve(
      sha256Hex(normalizedUserCode(input) as string),
      this.options.clock.nowSeconds(),
      {
        uid,
        authTime,
        code: {
          codeHash: code.hash,
          expiresAt: found.record.expiresAt,
          challenge: null,
          challengeMethod: null,
          redirectUri: null,
        },
      },
    );
    if (!approved) return false;
    this.options.log.info(
      { event: "oauth2_device_approved", client: found.client.clientId, uid },
      `A device authorization has been approved for the client "${found.client.name}".`,
    );
    await this.options.authorized(uid, found.client);
    return true;
  }

  /** The user denies (RFC 8628 §3.5 `access_denied` for the client's next poll). */
  async deny(input: string, uid: string): Promise<boolean> {
    const found = await this.lookup(input);
    if (found.kind !== "pending") return false;
    const denied = await this.options.store.deny(sha256Hex(normalizedUserCode(input) as string), this.options.clock.nowSeconds());
    if (denied) {
      this.options.log.info(
        { event: "oauth2_device_denied", client: found.client.clientId, uid },
        "the user denied a device authorization",
      );
    }
    return denied;
  }
}
