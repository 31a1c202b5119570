import type { EndedSessions } from "../../../accounts/ports.js";
import type { ClaimedLogout, LogoutQueueStore } from "../../../oidc/ports.js";
import type { Db, DbOrTx } from "../../driver/database.js";
import { transaction } from "../../driver/prepared.js";

/** Back-channel logout's tables (migration 0021): `oidc_session_clients` and `oidc_logout_deliveries`. */
export class SqlLogoutQueueStore implements LogoutQueueStore {
  constructor(private readonly db: Db) {}

  async recordSessionClient(entry: Parameters<LogoutQueueStore["recordSessionClient"]>[0]): Promise<void> {
    await this.db
      .insertInto("oidc_session_clients")
      .columns(["session_id_hash", "client_id", "uid", "sid", "issuer", "created_at"])
      .expression((eb) =>
        eb
          .selectFrom("oauth2_clients")
          .select([
            eb.val(entry.sessionIdHash).as("session_id_hash"),
            "id as client_id",
            eb.val(entry.uid).as("uid"),
            eb.val(entry.sid).as("sid"),
            eb.val(entry.issuer).as("issuer"),
            eb.val(entry.now).as("created_at"),
          ])
          .where("client_id", "=", entry.clientId),
      )
      .onConflict((oc) => oc.columns(["session_id_hash", "client_id"]).doNothing())
      .execute();
  }

  enqueue(ended: EndedSessions, now: number): Promise<number> {
    return transaction(this.db, async (trx) => {
      const rows = await this.endedRecords(trx, ended)
        .innerJoin("oauth2_clients as c", "c.id", "sc.client_id")
        .select(["sc.client_id", "sc.sid", "sc.uid", "sc.issuer", "c.backchannel_logout_uri"])
        .execute();
      const deliveries = rows
        .filter((row) => row.backchannel_logout_uri !== null)
        .map((row) => ({
          client_id: Number(row.client_id),
          sid: row.sid,
          uid: row.uid,
          issuer: row.issuer,
          next_attempt_at: now,
          created_at: now,
        }));
      if (deliveries.length > 0) await trx.insertInto("oidc_logout_deliveries").values(deliveries).execute();
      if (rows.length > 0) {
        let removal = trx.deleteFrom("oidc_session_clients");
        removal =
          "sessionIdHash" in ended
            ? removal.where("session_id_hash", "=", ended.sessionIdHash)
            : removal.where("uid", "=", ended.uid);
        if ("uid" in ended && ended.exceptSessionIdHash !== undefined) {
          removal = removal.where("session_id_hash", "<>", ended.exceptSessionIdHash);
        }
        await removal.execute();
      }
      return deliveries.length;
    });
  }

  private endedRecords(db: DbOrTx, ended: EndedSessions) {
    const records = db.selectFrom("oidc_session_clients as sc");
    if ("sessionIdHash" in ended) return records.where("sc.session_id_hash", "=", ended.sessionIdHash);
    const ofUser = records.where("sc.uid", "=", ended.uid);
    return ended.exceptSessionIdHash === undefined ? ofUser : ofUser.where("sc.session_id_hash", "<>", ended.exceptSessionIdHash);
  }

  async due(now: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom("oidc_logout_deliveries")
      .select("id")
      .where("next_attempt_at", "<=", now)
      .where("lease_until", "<=", now)
      .orderBy("next_attempt_at")
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map((row) => Number(row.id));
  }

  async claim(id: number, holder: string, now: number, leaseUntil: number): Promise<ClaimedLogout | undefined> {
    const taken = await this.db
      .updateTable("oidc_logout_deliveries")
      .set({ lease_holder: holder, lease_until: leaseUntil })
      .where("id", "=", id)
      .where("next_attempt_at", "<=", now)
      .where("lease_until", "<=", now)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) return undefined;
    const row = await this.db
      .selectFrom("oidc_logout_deliveries as d")
      .innerJoin("oauth2_clients as c", "c.id", "d.client_id")
      .select(["d.id", "c.client_id", "c.backchannel_logout_uri", "d.sid", "d.uid", "d.issuer", "d.attempts"])
      .where("d.id", "=", id)
      .where("d.lease_holder", "=", holder)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.backchannel_logout_uri === null) {
      await this.finish(id, holder);
      return undefined;
    }
    return {
      id: Number(row.id),
      clientId: row.client_id,
      backchannelLogoutUri: row.backchannel_logout_uri,
      sid: row.sid,
      uid: row.uid,
      issuer: row.issuer,
      attempts: Number(row.attempts),
    };
  }

  async finish(id: number, holder: string): Promise<void> {
    await this.db.deleteFrom("oidc_logout_deliveries").where("id", "=", id).where("lease_holder", "=", holder).execute();
  }

  async retryLater(id: number, holder: string, attempts: number, nextAttemptAt: number): Promise<void> {
    await this.db
      .updateTable("oidc_logout_deliveries")
      .set({ attempts, next_attempt_at: nextAttemptAt, lease_holder: null, lease_until: 0 })
      .where("id", "=", id)
      .where("lease_holder", "=", holder)
      .execute();
  }

  async purgeEndedSessionRecords(): Promise<number> {
    const result = await this.db
      .deleteFrom("oidc_session_clients")
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("sessions")
              .select("sessions.id_hash")
              .whereRef("sessions.id_hash", "=", "oidc_session_clients.session_id_hash"),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
