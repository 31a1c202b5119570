import { type Kysely, sql } from "kysely";

/**
 * Groups, as ownCloud's `groups` and `group_user` (owncloud/core lib/private/Group/Database.php):
 * `groups`, `group_members`, and the groups an OAuth client admits, `oauth2_client_groups`. The
 * group `admin` is created and takes every user the column `users.is_admin` marked; the column is
 * dropped, so being an administrator is membership of `admin` and nothing else (docs/decisions.md).
 */
export function groupsMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable("groups")
        .addColumn("gid", "varchar(64)", (c) => c.primaryKey())
        .addColumn("display_name", "varchar(255)", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("group_members")
        .addColumn("gid", "varchar(64)", (c) => c.notNull().references("groups.gid").onDelete("cascade"))
        .addColumn("uid", "varchar(64)", (c) => c.notNull().references("users.uid").onDelete("cascade"))
        .addPrimaryKeyConstraint("group_members_pk", ["gid", "uid"])
        .execute();
      await db.schema.createIndex("group_members_uid").on("group_members").columns(["uid", "gid"]).execute();
      await db.schema
        .createTable("oauth2_client_groups")
        .addColumn("client_id", "integer", (c) => c.notNull().references("oauth2_clients.id").onDelete("cascade"))
        // No cascade: a group a client admits cannot go while the client names it.
        .addColumn("gid", "varchar(64)", (c) => c.notNull().references("groups.gid"))
        .addPrimaryKeyConstraint("oauth2_client_groups_pk", ["client_id", "gid"])
        .execute();
      await db.schema.createIndex("oauth2_client_groups_gid").on("oauth2_client_groups").column("gid").execute();
      await db
        .insertInto("groups")
        .values({ gid: "admin", display_name: "admin", created_at: Math.floor(Date.now() / 1000) })
        .execute();
      await sql`INSERT INTO group_members (gid, uid) SELECT 'admin', uid FROM users WHERE is_admin = 1`.execute(db);
      await db.schema.alterTable("users").dropColumn("is_admin").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable("users")
        .addColumn("is_admin", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`UPDATE users SET is_admin = 1 WHERE uid IN (SELECT uid FROM group_members WHERE gid = 'admin')`.execute(db);
      await db.schema.dropTable("oauth2_client_groups").execute();
      await db.schema.dropTable("group_members").execute();
      await db.schema.dropTable("groups").execute();
    },
  };
}
