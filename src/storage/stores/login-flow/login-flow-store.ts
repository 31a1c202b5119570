import type { FlowGrant, LoginFlowStore, PendingFlow } from "../../../login-flow/ports.js";
import type { Db } from "../../driver/database.js";
import { transaction } from "../../driver/prepared.js";
import { insertAppPassword } from "../../statements/app-password-insert.js";

/**
 * `login_flows` (migration 2026_11_24_0012): Login Flow v2 state in the database, so a flow started
 * on one node can be granted on another and polled on a third. Every change is conditional on the
 * flow's state and age, so concurrent requests cannot both win (docs/architecture.md "atomic single use").
 */
export class SqlLoginFlowStore implements LoginFlowStore {
  constructor(private readonly db: Db) {}

  async insert(flow: Parameters<LoginFlowStore["insert"]>[0]): Promise<void> {
    await this.db
      .insertInto("login_flows")
      .values({
        poll_token_hash: flow.pollTokenHash,
        login_token_hash: flow.loginTokenHash,
        client_name: flow.clientName,
        client_address: flow.clientAddress,
        state: "pending",
        created_at: flow.createdAt,
        uid: null,
        login_name: null,
        app_password_id: null,
        sealed_app_password: null,
      })
      .execute();
  }

  async findPending(loginTokenHash: string, liveSince: number): Promise<PendingFlow | undefined> {
    const row = await this.db
      .selectFrom("login_flows")
      .select(["client_name", "created_at", "client_address"])
      .where("login_token_hash", "=", loginTokenHash)
      .where("state", "=", "pending")
      .where("created_at", ">", liveSince)
      .executeTakeFirst();
    return row && { clientName: row.client_name, startedAt: row.created_at, startedFrom: row.client_address };
  }

  grant(loginTokenHash: string, liveSince: number, grantFor: (clientName: string) => FlowGrant): Promise<boolean> {
    return transaction(this.db, async (trx) => {
      // The claim comes first: on PostgreSQL its row lock makes a concurrent grant or cancel wait
      // for this transaction and then find the flow no longer pending; SQLite has one writer.
      const claimed = await trx
        .updateTable("login_flows")
        .set({ state: "granted" })
        .where("login_token_hash", "=", loginTokenHash)
        .where("state", "=", "pending")
        .where("created_at", ">", liveSince)
        .returning("client_name")
        .executeTakeFirst();
      if (!claimed) return false;
      const granted = grantFor(claimed.client_name);
      const appPasswordId = await insertAppPassword(trx, granted.appPassword);
      await trx
        .updateTable("login_flows")
        .set({
          uid: granted.uid,
          login_name: granted.loginName,
          app_password_id: appPasswordId,
          sealed_app_password: granted.sealedAppPassword,
        })
        .where("login_token_hash", "=", loginTokenHash)
        .execute();
      return true;
    });
  }

  async cancel(loginTokenHash: string, liveSince: number): Promise<boolean> {
    const result = await this.db
      .updateTable("login_flows")
      .set({ state: "cancelled" })
      .where("login_token_hash", "=", loginTokenHash)
      .where("state", "=", "pending")
      .where("created_at", ">", liveSince)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async redeem(pollTokenHash: string, liveSince: number): Promise<{ loginName: string; sealedAppPassword: string } | undefined> {
    const row = await this.db
      .deleteFrom("login_flows")
      .where("poll_token_hash", "=", pollTokenHash)
      .where("state", "=", "granted")
      .where("created_at", ">", liveSince)
      .returning(["login_name", "sealed_app_password"])
      .executeTakeFirst();
    if (!row || row.login_name === null || row.sealed_app_password === null) return undefined;
    return { loginName: row.login_name, sealedAppPassword: row.sealed_app_password };
  }

  async exists(pollTokenHash: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("login_flows")
      .select("poll_token_hash")
      .where("poll_token_hash", "=", pollTokenHash)
      .executeTakeFirst();
    return row !== undefined;
  }

  purgeExpired(liveSince: number): Promise<number> {
    return transaction(this.db, async (trx) => {
      // An app password granted and never polled was delivered to nobody: it goes (and, by the
      // cascade, its flow with it), so expired grants leave no live credential behind.
      const orphans = await trx
        .deleteFrom("app_passwords")
        .where(
          "id",
          "in",
          trx
            .selectFrom("login_flows")
            .select("app_password_id")
            .where("state", "=", "granted")
            .where("created_at", "<=", liveSince)
            .where("app_password_id", "is not", null),
        )
        .executeTakeFirst();
      const rest = await trx.deleteFrom("login_flows").where("created_at", "<=", liveSince).executeTakeFirst();
      return Number(orphans.numDeletedRows) + Number(rest.numDeletedRows);
    });
  }
}
