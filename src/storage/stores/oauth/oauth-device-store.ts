import type { DeviceAuthorizationRecord, DeviceAuthorizationStore, NewCode } from "../../../oauth/ports.js";
import type { Db } from "../../driver/database.js";
import { transaction } from "../../driver/prepared.js";
import type { OAuthDeviceCodesTable } from "../../schema/oauth-device.js";
import { insertCode, insertGrant } from "./oauth-grant-store.js";

type DeviceRow = Pick<
  OAuthDeviceCodesTable,
  "client_id" | "scope" | "state" | "expires_at" | "poll_interval" | "last_polled_at" | "public_client" | "code_hash"
>;

const COLUMNS = [
  "client_id",
  "scope",
  "state",
  "expires_at",
  "poll_interval",
  "last_polled_at",
  "public_client",
  "code_hash",
] as const;

function recordOf(row: DeviceRow): DeviceAuthorizationRecord {
  return {
    clientInternalId: Number(row.client_id),
    scope: row.scope,
    state: row.state,
    expiresAt: Number(row.expires_at),
    interval: Number(row.poll_interval),
    lastPolledAt: row.last_polled_at === null ? null : Number(row.last_polled_at),
    publicClient: Number(row.public_client) === 1,
    codeHash: row.code_hash,
  };
}

/**
 * `oauth2_device_codes` (migration 2026_11_27_0019): device authorizations in the database, so a
 * device code issued on one node is approved on another and polled on a third. Every change is
 * conditional on the row's state (and, for a poll, on the previous poll's time), so of concurrent
 * requests only one wins (docs/architecture.md "atomic single use").
 */
export class SqlDeviceAuthorizationStore implements DeviceAuthorizationStore {
  constructor(private readonly db: Db) {}

  async insert(row: Parameters<DeviceAuthorizationStore["insert"]>[0]): Promise<boolean> {
    const inserted = await this.db
      .insertInto("oauth2_device_codes")
      .values({
        device_code_hash: row.deviceCodeHash,
        user_code_hash: row.userCodeHash,
        client_id: row.clientInternalId,
        scope: row.scope,
        state: "pending",
        public_client: row.publicClient ? 1 : 0,
        created_at: row.now,
        expires_at: row.expiresAt,
        poll_interval: row.interval,
        last_polled_at: null,
        grant_id: null,
        code_hash: null,
      })
      .onConflict((conflict) => conflict.doNothing())
      .returning("device_code_hash")
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async findByDeviceCode(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | undefined> {
    const row = await this.db
      .selectFrom("oauth2_device_codes")
      .select(COLUMNS)
      .where("device_code_hash", "=", deviceCodeHash)
      .executeTakeFirst();
    return row && recordOf(row);
  }

  async findPendingByUserCode(userCodeHash: string, now: number): Promise<DeviceAuthorizationRecord | undefined> {
    const row = await this.db
      .selectFrom("oauth2_device_codes")
      .select(COLUMNS)
      .where("user_code_hash", "=", userCodeHash)
      .where("state", "=", "pending")
      .where("expires_at", ">", now)
      .executeTakeFirst();
    return row && recordOf(row);
  }

  approve(userCodeHash: string, now: number, grant: { uid: string; authTime: number | null; code: NewCode }): Promise<boolean> {
    return transaction(this.db, async (trx) => {
      // The claim comes first: on PostgreSQL its row lock makes a concurrent approval or denial
      // wait for this transaction and then find the authorization no longer pending.
      const claimed = await trx
        .updateTable("oauth2_device_codes")
        .set({ state: "approved" })
        .where("user_code_hash", "=", userCodeHash)
        .where("state", "=", "pending")
        .where("expires_at", ">", now)
        .returning(["device_code_hash", "client_id", "scope"])
        .executeTakeFirst();
      if (!claimed) return false;
      const grantId = await insertGrant(trx, {
        clientInternalId: Number(claimed.client_id),
        uid: grant.uid,
        now,
        identity: { scope: claimed.scope, authTime: grant.authTime, nonce: null },
      });
      await insertCode(trx, grantId, now, grant.code);
      await trx
        .updateTable("oauth2_device_codes")
        .set({ grant_id: grantId, code_hash: grant.code.codeHash })
        .where("device_code_hash", "=", claimed.device_code_hash)
        .execute();
      return true;
    });
  }

  async deny(userCodeHash: string, now: number): Promise<boolean> {
    const denied = await this.db
      .updateTable("oauth2_device_codes")
      .set({ state: "denied" })
      .where("user_code_hash", "=", userCodeHash)
      .where("state", "=", "pending")
      .where("expires_at", ">", now)
      .returning("device_code_hash")
      .executeTakeFirst();
    return denied !== undefined;
  }

  async recordPoll(deviceCodeHash: string, previousPollAt: number | null, now: number, interval: number): Promise<boolean> {
    const recorded = await this.db
      .updateTable("oauth2_device_codes")
      .set({ last_polled_at: now, poll_interval: interval })
      .where("device_code_hash", "=", deviceCodeHash)
      .where("state", "=", "pending")
      .where("last_polled_at", previousPollAt === null ? "is" : "=", previousPollAt)
      .returning("device_code_hash")
      .executeTakeFirst();
    return recorded !== undefined;
  }

  async purgeExpired(cutoff: number): Promise<number> {
    const result = await this.db.deleteFrom("oauth2_device_codes").where("expires_at", "<=", cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
