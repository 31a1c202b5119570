import { sql } from "kysely";
import type { DbOrTx } from "../driver/database.js";

/**
 * Deletes the grants (their codes, tokens and device approvals cascade) that an OAuth client's
 * allowed groups no longer admit: grants at a client that names groups (oauth2_client_groups)
 * whose user is a member of none of them. Narrowed to one user or one client; run inside the
 * transaction of the change that may have excluded someone (a membership removed, a group deleted,
 * a client's allowed groups changed), so no token outlives the rule on any node: tokens are read
 * from the database at each use, never cached (docs/architecture.md). Returns how many grants ended.
 */
export async function endGrantsOutsideAllowedGroups(db: DbOrTx, scope: { uid: string } | { clientId: number }): Promise<number> {
  let statement = db
    .deleteFrom("oauth2_grants")
    .where("client_id", "in", (eb) => eb.selectFrom("oauth2_client_groups").select("client_id"))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("oauth2_client_groups as cg")
            .innerJoin("group_members as m", "m.gid", "cg.gid")
            .select(sql.lit(1).as("one"))
            .whereRef("cg.client_id", "=", "oauth2_grants.client_id")
            .whereRef("m.uid", "=", "oauth2_grants.uid"),
        ),
      ),
    );
  statement = "uid" in scope ? statement.where("uid", "=", scope.uid) : statement.where("client_id", "=", scope.clientId);
  const result = await statement.executeTakeFirst();
  return Number(result.numDeletedRows);
}
