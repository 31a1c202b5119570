import type {
  RecoveryCodeCounts,
  RecoveryCodeStore,
  SecondFactorOverview,
  TotpRecord,
  TotpStore,
} from "../../../second-factor/ports.js";
import type { Db } from "../../driver/database.js";
import { transaction } from "../../driver/prepared.js";

/** `second_factor_totp` (migration 0023): one enrolment per user, every change conditional. */
export class SqlTotpStore implements TotpStore {
  constructor(private readonly db: Db) {}

  async find(uid: string): Promise<TotpRecord | undefined> {
    const row = await this.db
      .selectFrom("second_factor_totp")
      .select(["sealed_secret", "enabled", "last_used_step", "created_at"])
      .where("uid", "=", uid)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      sealedSecret: row.sealed_secret,
      enabled: Number(row.enabled) === 1,
      lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
      createdAt: Number(row.created_at),
    };
  }

  async savePending(uid: string, sealedSecret: string, at: number): Promise<boolean> {
    return transaction(this.db, async (trx) => {
      const existing = await trx.selectFrom("second_factor_totp").select("enabled").where("uid", "=", uid).executeTakeFirst();
      if (existing && Number(existing.enabled) === 1) return false;
      if (existing) {
        const replaced = await trx
          .updateTable("second_factor_totp")
          .set({ sealed_secret: sealedSecret, created_at: at, last_used_step: null })
          .where("uid", "=", uid)
          .where("enabled", "=", 0)
          .executeTakeFirst();
        return Number(replaced.numUpdatedRows) === 1;
      }
      await trx
        .insertInto("second_factor_totp")
        .values({ uid, sealed_secret: sealedSecret, enabled: 0, last_used_step: null, created_at: at })
        .execute();
      return true;
    });
  }

  async enable(uid: string, sealedSecret: string, step: number, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable("second_factor_totp")
      .set({ enabled: 1, last_used_step: step, created_at: at })
      .where("uid", "=", uid)
      .where("enabled", "=", 0)
      .where("sealed_secret", "=", sealedSecret)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async useStep(uid: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable("second_factor_totp")
      .set({ last_used_step: step })
      .where("uid", "=", uid)
      .where("enabled", "=", 1)
      .where((eb) => eb.or([eb("last_used_step", "is", null), eb("last_used_step", "<", step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(uid: string): Promise<boolean> {
    const result = await this.db.deleteFrom("second_factor_totp").where("uid", "=", uid).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/** `second_factor_recovery_codes` (migration 0023): hashes only; use is a conditional update. */
export class SqlRecoveryCodeStore implements RecoveryCodeStore {
  constructor(private readonly db: Db) {}

  async replace(uid: string, hashes: readonly string[], at: number): Promise<void> {
    await transaction(this.db, async (trx) => {
      await trx.deleteFrom("second_factor_recovery_codes").where("uid", "=", uid).execute();
      if (hashes.length === 0) return;
      await trx
        .insertInto("second_factor_recovery_codes")
        .values(hashes.map((code_hash) => ({ uid, code_hash, created_at: at, used_at: null })))
        .execute();
    });
  }

  async use(uid: string, hash: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable("second_factor_recovery_codes")
      .set({ used_at: at })
      .where("uid", "=", uid)
      .where("code_hash", "=", hash)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async counts(uid: string): Promise<RecoveryCodeCounts> {
    const rows = await this.db.selectFrom("second_factor_recovery_codes").select("used_at").where("uid", "=", uid).execute();
    return { total: rows.length, unused: rows.filter((r) => r.used_at === null).length };
  }

  async deleteAll(uid: string): Promise<boolean> {
    const result = await this.db.deleteFrom("second_factor_recovery_codes").where("uid", "=", uid).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/** Every user's providers in three statements, for the administrator's users table. */
export class SqlSecondFactorOverview implements SecondFactorOverview {
  constructor(private readonly db: Db) {}

  async enabledByUser(uids?: readonly string[]): Promise<Map<string, string[]>> {
    if (uids?.length === 0) return new Map();
    const only = <Q extends { where: (column: "uid", op: "in", values: readonly string[]) => Q }>(query: Q): Q =>
      uids === undefined ? query : query.where("uid", "in", uids);
    const totp = await only(this.db.selectFrom("second_factor_totp").select("uid").where("enabled", "=", 1)).execute();
    const codes = await only(this.db.selectFrom("second_factor_recovery_codes").select("uid").distinct()).execute();
    const passkeys = await only(this.db.selectFrom("webauthn_credentials").select("uid").distinct()).execute();
    const byUser = new Map<string, string[]>();
    const add = (uid: string, id: string) => byUser.set(uid, [...(byUser.get(uid) ?? []), id]);
    for (const { uid } of totp) add(uid, "totp");
    for (const { uid } of codes) add(uid, "backup_codes");
    for (const { uid } of passkeys) add(uid, "webauthn");
    return byUser;
  }
}
