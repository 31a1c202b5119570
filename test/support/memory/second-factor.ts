import type {
  PasskeyRecord,
  PasskeyStore,
  RecoveryCodeCounts,
  RecoveryCodeStore,
  SecondFactorOverview,
  TotpRecord,
  TotpStore,
  WebAuthnChallengeStore,
} from "../../../src/second-factor/ports.js";
import { deleteWhere } from "./accounts-credentials.js";
import type { MemoryTables } from "./tables.js";

/** second-factor/ports.ts TotpStore in memory (src/storage/stores/second-factor/second-factor-store.ts is the SQL one). */
export class MemoryTotpStore implements TotpStore {
  readonly rows = new Map<string, TotpRecord>();

  constructor(private readonly tables: MemoryTables) {
    tables.onUserDeleted((uid) => this.rows.delete(uid));
  }

  async find(uid: string): Promise<TotpRecord | undefined> {
    const row = this.rows.get(uid);
    return row && { ...row };
  }

  async savePending(uid: string, sealedSecret: string, at: number): Promise<boolean> {
    this.tables.requireUser(uid);
    if (this.rows.get(uid)?.enabled) return false;
    this.rows.set(uid, { sealedSecret, enabled: false, lastUsedStep: null, createdAt: at });
    return true;
  }

  async enable(uid: string, sealedSecret: string, step: number, at: number): Promise<boolean> {
    const row = this.rows.get(uid);
    if (!row || row.enabled || row.sealedSecret !== sealedSecret) return false;
    this.rows.set(uid, { sealedSecret, enabled: true, lastUsedStep: step, createdAt: at });
    return true;
  }

  async useStep(uid: string, step: number): Promise<boolean> {
    const row = this.rows.get(uid);
    if (!row?.enabled || (row.lastUsedStep !== null && row.lastUsedStep >= step)) return false;
    this.rows.set(uid, { ...row, lastUsedStep: step });
    return true;
  }

  async delete(uid: string): Promise<boolean> {
    return this.rows.delete(uid);
  }
}

/** second-factor/ports.ts RecoveryCodeStore in memory. */
export class MemoryRecoveryCodeStore implements RecoveryCodeStore {
  /** uid → code hash → when it was used (null: unused). */
  readonly rows = new Map<string, Map<string, number | null>>();

  constructor(private readonly tables: MemoryTables) {
    tables.onUserDeleted((uid) => this.rows.delete(uid));
  }

  async replace(uid: string, hashes: readonly string[], _at: number): Promise<void> {
    this.tables.requireUser(uid);
    if (new Set(hashes).size !== hashes.length) throw new Error("unique: a code hash twice");
    if (hashes.length === 0) this.rows.delete(uid);
    else this.rows.set(uid, new Map(hashes.map((hash) => [hash, null])));
  }

  async use(uid: string, hash: string, at: number): Promise<boolean> {
    const codes = this.rows.get(uid);
    if (codes?.get(hash) !== null) return false;
    codes.set(hash, at);
    return true;
  }

  async counts(uid: string): Promise<RecoveryCodeCounts> {
    const used = [...(this.rows.get(uid)?.values() ?? [])];
    return { total: used.length, unused: used.filter((at) => at === null).length };
  }

  async deleteAll(uid: string): Promise<boolean> {
    return this.rows.delete(uid);
  }
}

/** second-factor/ports.ts PasskeyStore in memory. */
export class MemoryPasskeyStore implements PasskeyStore {
  readonly rows = new Map<string, PasskeyRecord>();

  constructor(private readonly tables: MemoryTables) {
    tables.onUserDeleted((uid) => deleteWhere(this.rows, (row) => row.uid === uid));
  }

  async add(record: PasskeyRecord): Promise<boolean> {
    this.tables.requireUser(record.uid);
    if (this.rows.has(record.id)) return false;
    this.rows.set(record.id, copy(record));
    return true;
  }

  async listFor(uid: string): Promise<PasskeyRecord[]> {
    return [...this.rows.values()]
      .filter((row) => row.uid === uid)
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(copy);
  }

  async find(id: string): Promise<PasskeyRecord | undefined> {
    const row = this.rows.get(id);
    return row && copy(row);
  }

  async recordUse(id: string, seen: number, counter: number, at: number): Promise<boolean> {
    const row = this.rows.get(id);
    if (row?.counter !== seen) return false;
    this.rows.set(id, { ...row, counter, lastUsedAt: at });
    return true;
  }

  async remove(uid: string, id: string): Promise<boolean> {
    return this.rows.get(id)?.uid === uid && this.rows.delete(id);
  }

  async removeAll(uid: string): Promise<boolean> {
    return deleteWhere(this.rows, (row) => row.uid === uid) > 0;
  }
}

function copy(record: PasskeyRecord): PasskeyRecord {
  return { ...record, transports: [...record.transports] };
}

/** second-factor/ports.ts WebAuthnChallengeStore in memory. */
export class MemoryWebAuthnChallengeStore implements WebAuthnChallengeStore {
  private readonly challenges = new Map<string, { binding: string; expiresAt: number }>();

  async save(challenge: string, binding: string, expiresAt: number, now: number): Promise<void> {
    deleteWhere(this.challenges, (c) => c.expiresAt <= now);
    if (this.challenges.has(challenge)) throw new Error("unique: challenge exists");
    this.challenges.set(challenge, { binding, expiresAt });
  }

  async consume(challenge: string, binding: string, now: number): Promise<boolean> {
    const kept = this.challenges.get(challenge);
    if (!kept || kept.binding !== binding || kept.expiresAt <= now) return false;
    return this.challenges.delete(challenge);
  }
}

/** second-factor/ports.ts SecondFactorOverview over the memory stores of the three providers. */
export class MemorySecondFactorOverview implements SecondFactorOverview {
  constructor(
    private readonly stores: { totp: MemoryTotpStore; recoveryCodes: MemoryRecoveryCodeStore; passkeys: MemoryPasskeyStore },
  ) {}

  async enabledByUser(uids?: readonly string[]): Promise<Map<string, string[]>> {
    const wanted = (uid: string) => uids === undefined || uids.includes(uid);
    const byUser = new Map<string, string[]>();
    const add = (uid: string, id: string) => {
      if (wanted(uid)) byUser.set(uid, [...(byUser.get(uid) ?? []), id]);
    };
    for (const [uid, row] of this.stores.totp.rows) if (row.enabled) add(uid, "totp");
    for (const uid of this.stores.recoveryCodes.rows.keys()) add(uid, "backup_codes");
    for (const uid of new Set([...this.stores.passkeys.rows.values()].map((row) => row.uid))) add(uid, "webauthn");
    return byUser;
  }
}
