import { sql } from "kysely";
import { ADMIN_GROUP } from "../../../groups/domain/group-id.js";
import type { Group, GroupDeletion, GroupMember, GroupStore, GroupSummary, RemovalOutcome } from "../../../groups/ports.js";
import type { Db, DbOrTx, Dialect } from "../../driver/database.js";
import { transaction } from "../../driver/prepared.js";
import { endGrantsOutsideAllowedGroups } from "../../statements/access-rules.js";

/** Groups (`groups`, `group_members`, migration 0026), see groups/ports.ts. */
export class SqlGroupStore implements GroupStore {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  async insert(group: Group, createdAt: number): Promise<boolean> {
    const result = await this.db
      .insertInto("groups")
      .values({ gid: group.gid, display_name: group.displayName, created_at: createdAt })
      .onConflict((c) => c.column("gid").doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async find(gid: string): Promise<Group | undefined> {
    const row = await this.db.selectFrom("groups").select(["gid", "display_name"]).where("gid", "=", gid).executeTakeFirst();
    return row && { gid: row.gid, displayName: row.display_name };
  }

  async list(search: string): Promise<GroupSummary[]> {
    let query = this.db
      .selectFrom("groups as g")
      .select(["g.gid", "g.display_name"])
      .select((eb) =>
        eb
          .selectFrom("group_members as m")
          .select((c) => c.fn.countAll<number | string>().as("n"))
          .whereRef("m.gid", "=", "g.gid")
          .as("member_count"),
      );
    if (search !== "")
      query = query.where(sql<boolean>`LOWER(g.gid) LIKE ${`%${escapeLike(search.toLowerCase())}%`} ESCAPE '\\'`);
    const rows = await query.orderBy("g.gid").execute();
    return rows.map((r) => ({ gid: r.gid, displayName: r.display_name, memberCount: Number(r.member_count ?? 0) }));
  }

  delete(gid: string): Promise<GroupDeletion> {
    return transaction(this.db, async (trx) => {
      const clients = await trx
        .selectFrom("oauth2_client_groups as cg")
        .innerJoin("oauth2_clients as c", "c.id", "cg.client_id")
        .select("c.name")
        .where("cg.gid", "=", gid)
        .orderBy("c.name")
        .execute();
      if (clients.length > 0) return { deleted: false, reason: "in_use", clients: clients.map((c) => c.name) };
      await trx.deleteFrom("group_members").where("gid", "=", gid).execute();
      const result = await trx.deleteFrom("groups").where("gid", "=", gid).executeTakeFirst();
      // No client admits this group, so no grant depended on it: nothing else ends.
      return Number(result.numDeletedRows) === 0 ? { deleted: false, reason: "no_such_group" } : { deleted: true };
    });
  }

  async members(gid: string): Promise<GroupMember[]> {
    const rows = await this.db
      .selectFrom("group_members as m")
      .innerJoin("users as u", "u.uid", "m.uid")
      .select(["u.uid", "u.display_name"])
      .where("m.gid", "=", gid)
      .orderBy("u.uid")
      .execute();
    return rows.map((r) => ({ uid: r.uid, displayName: r.display_name }));
  }

  async groupsOf(uid: string): Promise<string[]> {
    const rows = await this.db.selectFrom("group_members").select("gid").where("uid", "=", uid).orderBy("gid").execute();
    return rows.map((r) => r.gid);
  }

  async groupsOfUsers(uids: readonly string[]): Promise<Map<string, string[]>> {
    const byUser = new Map<string, string[]>();
    const rows = await this.db
      .selectFrom("group_members")
      .select(["uid", "gid"])
      .where("uid", "in", [...uids])
      .orderBy("uid")
      .orderBy("gid")
      .execute();
    for (const { uid, gid } of rows) byUser.set(uid, [...(byUser.get(uid) ?? []), gid]);
    return byUser;
  }

  async addMember(gid: string, uid: string): Promise<boolean> {
    const result = await this.db
      .insertInto("group_members")
      .values({ gid, uid })
      .onConflict((c) => c.columns(["gid", "uid"]).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  removeMember(gid: string, uid: string): Promise<RemovalOutcome> {
    return transaction(this.db, async (trx) => {
      if (gid === ADMIN_GROUP) {
        await this.lockAdminGroup(trx);
        if (await lastAdmin(trx, uid)) return "last_admin";
      }
      const result = await trx.deleteFrom("group_members").where("gid", "=", gid).where("uid", "=", uid).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return "not_member";
      await endGrantsOutsideAllowedGroups(trx, { uid });
      return "removed";
    });
  }

  isLastAdmin(uid: string): Promise<boolean> {
    return lastAdmin(this.db, uid);
  }

  /** PostgreSQL: two removals from `admin` wait for each other, so they cannot both see two admins. */
  private async lockAdminGroup(trx: DbOrTx): Promise<void> {
    if (this.dialect !== "postgres") return;
    await trx.selectFrom("groups").select("gid").where("gid", "=", ADMIN_GROUP).forUpdate().execute();
  }
}

async function lastAdmin(db: DbOrTx, uid: string): Promise<boolean> {
  const admins = await db.selectFrom("group_members").select("uid").where("gid", "=", ADMIN_GROUP).limit(2).execute();
  return admins.length === 1 && admins[0]?.uid === uid;
}

/** A LIKE pattern that matches `text` literally (ESCAPE '\'). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
