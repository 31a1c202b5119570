import type { Kysely, Transaction } from "kysely";
import type { AccountsTables } from "../schema/accounts.js";
import type { ActivityTables } from "../schema/activity.js";
import type { AuditTables } from "../schema/audit.js";
import type { GroupTables } from "../schema/groups.js";
import type { LoginFlowTables } from "../schema/login-flow.js";
import type { NotificationTables } from "../schema/notifications.js";
import type { OAuthTables } from "../schema/oauth.js";
import type { OAuthDeviceTables } from "../schema/oauth-device.js";
import type { PasskeyTables } from "../schema/passkeys.js";
import type { SecondFactorTables } from "../schema/second-factor.js";

/**
 * The whole schema as one type. Each domain declares its tables in `schema/<domain>.ts`
 * and is intersected here, so a table has exactly one definition.
 */
export type Database = AccountsTables &
  OAuthTables &
  ActivityTables &
  LoginFlowTables &
  OAuthDeviceTables &
  SecondFactorTables &
  PasskeyTables &
  NotificationTables &
  AuditTables &
  GroupTables;

export type Db = Kysely<Database>;
export type DbOrTx = Kysely<Database> | Transaction<Database>;
export type Dialect = "sqlite" | "postgres";
