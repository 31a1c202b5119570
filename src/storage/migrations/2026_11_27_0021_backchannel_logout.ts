import type { Kysely } from "kysely";
import type { Dialect } from "../driver/database.js";
import { autoIncrementId } from "./portable.js";

/**
 * OpenID Connect Back-Channel Logout 1.0:
 * - `oauth2_clients.backchannel_logout_uri`: where the client receives logout tokens (§2.2); null: none.
 * - `oauth2_grants.session_id_hash`: the browser session the authorization was granted in (the hash
 *   the sessions table keys it by), so the code exchange knows which session its ID token belongs to
 *   and every ID token of the grant carries that session's `sid`. Null for grants made before this
 *   migration or without a session.
 * - `oidc_session_clients`: which client received an ID token in which session (with the `sid` and
 *   issuer that ID token carried), for whom: the
 *   clients to tell when the session ends. No foreign key to `users`: a deleted user's rows must
 *   outlive the user until their logout is queued.
 * - `oidc_logout_deliveries`: the durable queue of logout tokens to send (§2.5), one row per
 *   session and client; a node claims a row with a lease (`lease_holder`, `lease_until`) before it
 *   posts, so two nodes never send the same row at once, and a node that dies mid-send leaves a row
 *   another takes when the lease ends.
 */
export function backchannelLogoutMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("oauth2_clients").addColumn("backchannel_logout_uri", "text").execute();
      await db.schema.alterTable("oauth2_grants").addColumn("session_id_hash", "text").execute();
      await db.schema
        .createTable("oidc_session_clients")
        .addColumn("session_id_hash", "text", (c) => c.notNull())
        .addColumn("client_id", "bigint", (c) => c.notNull().references("oauth2_clients.id").onDelete("cascade"))
        .addColumn("uid", "varchar(64)", (c) => c.notNull())
        .addColumn("sid", "text", (c) => c.notNull())
        .addColumn("issuer", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("oidc_session_clients_pk", ["session_id_hash", "client_id"])
        .execute();
      await db.schema.createIndex("oidc_session_clients_uid").on("oidc_session_clients").column("uid").execute();
      await autoIncrementId(db.schema.createTable("oidc_logout_deliveries"), dialect)
        .addColumn("client_id", "bigint", (c) => c.notNull().references("oauth2_clients.id").onDelete("cascade"))
        .addColumn("sid", "text", (c) => c.notNull())
        .addColumn("uid", "varchar(64)", (c) => c.notNull())
        .addColumn("issuer", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", "bigint", (c) => c.notNull())
        .addColumn("lease_holder", "text")
        .addColumn("lease_until", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("oidc_logout_deliveries_due").on("oidc_logout_deliveries").column("next_attempt_at").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("oidc_logout_deliveries").execute();
      await db.schema.dropTable("oidc_session_clients").execute();
      await db.schema.alterTable("oauth2_grants").dropColumn("session_id_hash").execute();
      await db.schema.alterTable("oauth2_clients").dropColumn("backchannel_logout_uri").execute();
    },
  };
}
