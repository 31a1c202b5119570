import { newAppPassword } from "../accounts/app-passwords.js";
import { type AuditTrail, NO_AUDIT } from "../audit/recorder.js";
import type { Clock } from "../clock.js";
import type { SecretSealer } from "../crypto/secret-box.js";
import { randomAlphanumeric, sha256Hex } from "../crypto/secrets.js";
import { clientAddressOf, LOGIN_FLOW_TOKEN_LENGTH, liveSince, type PollOutcome, type StartedFlow } from "./flow.js";
import type { LoginFlowStore, PendingFlow } from "./ports.js";

/** The account a grant is for: its uid, and the login name the client will send with Basic. */
export interface GrantingUser {
  uid: string;
  loginName: string;
}

/**
 * Login Flow v2 (flow.ts has the rules). Tokens are hashed before they reach the store; the app
 * password is sealed from its creation to its one delivery.
 */
export class LoginFlowService {
  constructor(
    private readonly store: LoginFlowStore,
    private readonly clock: Clock,
    private readonly sealer: SecretSealer,
    private readonly audit: AuditTrail = NO_AUDIT,
    /** Told the user and the client's name after each grant's transaction committed (the user is notified of it). */
    private readonly granted?: (uid: string, clientName: string) => Promise<void>,
  ) {}

  /** Starts a flow for the application that calls itself `clientName`, from `clientAddress`. */
  async start(clientName: string, clientAddress: string): Promise<StartedFlow> {
    const flow = {
      pollToken: randomAlphanumeric(LOGIN_FLOW_TOKEN_LENGTH),
      loginToken: randomAlphanumeric(LOGIN_FLOW_TOKEN_LENGTH),
    };
    await this.store.insert({
      pollTokenHash: sha256Hex(flow.pollToken),
      loginTokenHash: sha256Hex(flow.loginToken),
      clientName,
      clientAddress: clientAddressOf(clientAddress),
      createdAt: this.clock.nowSeconds(),
    });
    return flow;
  }

  /** The live pending flow behind a login URL's token, else undefined. */
  pending(loginToken: string): Promise<PendingFlow | undefined> {
    return this.store.findPending(sha256Hex(loginToken), this.live());
  }

  /**
   * Grants the flow to `user`: creates an app password named after the client (in the same
   * transaction) and keeps it sealed for the poll. False when the flow is no longer live and pending.
   */
  async grant(loginToken: string, user: GrantingUser): Promise<boolean> {
    let appPasswordName = "";
    const granted = await this.store.grant(sha256Hex(loginToken), this.live(), (clientName) => {
      const made = newAppPassword(user.uid, clientName, this.clock.nowSeconds());
      // clientNameOf (flow.ts) gives every flow a name of 1 to MAX_CLIENT_NAME_LENGTH characters.
      if (!made.ok) throw new Error(made.message);
      const { record, secret } = made.value;
      appPasswordName = record.name;
      return {
        uid: user.uid,
        loginName: user.loginName,
        appPassword: record,
        sealedAppPassword: this.sealer.encrypt(secret),
      };
    });
    if (granted) {
      this.audit.record("login_flow.granted", { uid: user.uid, subject: { type: "app_password", id: appPasswordName } });
      await this.granted?.(user.uid, appPasswordName);
    }
    return granted;
  }

  cancel(loginToken: string): Promise<boolean> {
    return this.store.cancel(sha256Hex(loginToken), this.live());
  }

  async poll(pollToken: string): Promise<PollOutcome> {
    const pollTokenHash = sha256Hex(pollToken);
    const redeemed = await this.store.redeem(pollTokenHash, this.live());
    if (redeemed) {
      return { kind: "granted", loginName: redeemed.loginName, appPassword: this.sealer.decrypt(redeemed.sealedAppPassword) };
    }
    return (await this.store.exists(pollTokenHash)) ? { kind: "waiting" } : { kind: "unknown" };
  }

  purgeExpired(): Promise<number> {
    return this.store.purgeExpired(this.live());
  }

  private live(): number {
    return liveSince(this.clock.nowSeconds());
  }
}
