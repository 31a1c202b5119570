import type { FlowGrant, LoginFlowStore, PendingFlow } from "../../../src/login-flow/ports.js";
import { deleteWhere, type MemoryAppPasswordStore } from "./accounts-credentials.js";
import type { MemoryTables } from "./tables.js";

interface FlowRow {
  pollTokenHash: string;
  loginTokenHash: string;
  clientName: string;
  clientAddress: string;
  createdAt: number;
  state: "pending" | "granted" | "cancelled";
  uid: string | null;
  loginName: string | null;
  appPasswordId: number | null;
  sealedAppPassword: string | null;
}

/**
 * login-flow/ports.ts LoginFlowStore in memory (src/storage/stores/login-flow/login-flow-store.ts is the SQL one). A
 * flow goes with its user and with its app password (ON DELETE CASCADE), here when next read.
 */
export class MemoryLoginFlowStore implements LoginFlowStore {
  private readonly flows = new Map<string, FlowRow>();

  constructor(
    tables: MemoryTables,
    private readonly appPasswords: MemoryAppPasswordStore,
  ) {
    tables.onUserDeleted((uid) => deleteWhere(this.flows, (flow) => flow.uid === uid));
  }

  async insert(flow: Parameters<LoginFlowStore["insert"]>[0]): Promise<void> {
    if (this.flows.has(flow.pollTokenHash)) throw new Error("unique: poll token");
    this.flows.set(flow.pollTokenHash, {
      ...flow,
      state: "pending",
      uid: null,
      loginName: null,
      appPasswordId: null,
      sealedAppPassword: null,
    });
  }

  async findPending(loginTokenHash: string, liveSince: number): Promise<PendingFlow | undefined> {
    const flow = this.live(loginTokenHash, liveSince, "pending");
    return flow && { clientName: flow.clientName, startedAt: flow.createdAt, startedFrom: flow.clientAddress };
  }

  async grant(loginTokenHash: string, liveSince: number, grantFor: (clientName: string) => FlowGrant): Promise<boolean> {
    const flow = this.live(loginTokenHash, liveSince, "pending");
    if (!flow) return false;
    // What grantFor throws leaves the flow pending, as the rolled-back transaction does.
    const granted = grantFor(flow.clientName);
    const appPasswordId = await this.appPasswords.insert(granted.appPassword);
    Object.assign(flow, {
      state: "granted",
      uid: granted.uid,
      loginName: granted.loginName,
      appPasswordId,
      sealedAppPassword: granted.sealedAppPassword,
    });
    return true;
  }

  async cancel(loginTokenHash: string, liveSince: number): Promise<boolean> {
    const flow = this.live(loginTokenHash, liveSince, "pending");
    if (!flow) return false;
    flow.state = "cancelled";
    return true;
  }

  async redeem(pollTokenHash: string, liveSince: number): Promise<{ loginName: string; sealedAppPassword: string } | undefined> {
    this.cascade();
    const flow = this.flows.get(pollTokenHash);
    if (flow?.state !== "granted" || flow.createdAt <= liveSince) return undefined;
    this.flows.delete(pollTokenHash);
    if (flow.loginName === null || flow.sealedAppPassword === null) return undefined;
    return { loginName: flow.loginName, sealedAppPassword: flow.sealedAppPassword };
  }

  async exists(pollTokenHash: string): Promise<boolean> {
    this.cascade();
    return this.flows.has(pollTokenHash);
  }

  async purgeExpired(liveSince: number): Promise<number> {
    this.cascade();
    let deleted = 0;
    for (const flow of this.flows.values()) {
      if (flow.state === "granted" && flow.createdAt <= liveSince && flow.appPasswordId !== null) {
        if (this.appPasswords.deleteById(flow.appPasswordId)) deleted++;
      }
    }
    // The flows whose app password just went follow it by the cascade, uncounted.
    this.cascade();
    return deleted + deleteWhere(this.flows, (flow) => flow.createdAt <= liveSince);
  }

  private live(loginTokenHash: string, liveSince: number, state: FlowRow["state"]): FlowRow | undefined {
    this.cascade();
    return [...this.flows.values()].find(
      (flow) => flow.loginTokenHash === loginTokenHash && flow.state === state && flow.createdAt > liveSince,
    );
  }

  /** Drops the flows whose app password is gone (ON DELETE CASCADE on app_password_id). */
  private cascade(): void {
    deleteWhere(this.flows, (flow) => flow.appPasswordId !== null && !this.appPasswords.has(flow.appPasswordId));
  }
}
