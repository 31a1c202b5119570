import type { Migration } from "kysely";
import type { Dialect } from "../driver/database.js";
import { accountsMigration } from "./2026_11_21_0001_accounts.js";
import { oauthMigration } from "./2026_11_21_0002_oauth.js";
import { activityMigration } from "./2026_11_21_0003_activity.js";
import { oauthHardeningMigration } from "./2026_11_21_0004_oauth_hardening.js";
import { tokenWriteIndexesMigration } from "./2026_11_21_0005_token_write_indexes.js";
import { tokenRowidsMigration } from "./2026_11_21_0006_token_rowids.js";
import { codeRedirectUriMigration } from "./2026_11_24_0007_code_redirect_uri.js";
import { clientResourceServerMigration } from "./2026_11_24_0008_client_resource_server.js";
import { idempotencyKeysMigration } from "./2026_11_24_0009_idempotency_keys.js";
import { throttleKeysMigration } from "./2026_11_24_0010_throttle_keys.js";
import { oidcMigration } from "./2026_11_24_0011_oidc.js";
import { loginFlowMigration } from "./2026_11_24_0012_login_flow.js";
import { fileActivityMigration } from "./2026_11_24_0013_file_activity.js";
import { userPreferencesMigration } from "./2026_11_24_0014_user_preferences.js";
import { sessionDetailsMigration } from "./2026_11_24_0015_session_details.js";
import { scopesMigration } from "./2026_11_27_0016_scopes.js";
import { identityMigration } from "./2026_11_27_0017_identity.js";
import { passwordConfirmationMigration } from "./2026_11_27_0018_password_confirmation.js";
import { deviceAuthorizationMigration } from "./2026_11_27_0019_device_authorization.js";

import { registeredClientsMigration } from "./2026_11_27_0020_registered_clients.js";
import { backchannelLogoutMigration } from "./2026_11_27_0021_backchannel_logout.js";

import { secondFactorsMigration } from "./2026_11_27_0023_second_factors.js";
import { passkeysMigration } from "./2026_11_27_0024_passkeys.js";
import { notificationsMigration } from "./2026_11_27_0025_notifications.js";
import { groupsMigration } from "./2026_11_27_0026_groups.js";
import { auditLogMigration } from "./2026_11_27_0027_audit_log.js";
import { lastLoginMigration } from "./2026_11_27_0028_last_login.js";
import { pushEndsMigration } from "./2026_11_27_0029_push_ends.js";

/**
 * Every migration, in order. Names are frozen once released: add new files, never edit old ones.
 */
export function allMigrations(dialect: Dialect): Record<string, Migration> {
  return {
    "2026_11_21_0001_accounts": accountsMigration(dialect),
    "2026_11_21_0002_oauth": oauthMigration(dialect),
    "2026_11_21_0003_activity": activityMigration(dialect),
    "2026_11_21_0004_oauth_hardening": oauthHardeningMigration(),
    "2026_11_21_0005_token_write_indexes": tokenWriteIndexesMigration(),
    "2026_11_21_0006_token_rowids": tokenRowidsMigration(dialect),
    "2026_11_24_0007_code_redirect_uri": codeRedirectUriMigration(),
    "2026_11_24_0008_client_resource_server": clientResourceServerMigration(),
    "2026_11_24_0009_idempotency_keys": idempotencyKeysMigration(),
    "2026_11_24_0010_throttle_keys": throttleKeysMigration(),
    "2026_11_24_0011_oidc": oidcMigration(),
    "2026_11_24_0012_login_flow": loginFlowMigration(),
    "2026_11_24_0013_file_activity": fileActivityMigration(),
    "2026_11_24_0014_user_preferences": userPreferencesMigration(),
    "2026_11_24_0015_session_details": sessionDetailsMigration(),
    "2026_11_27_0016_scopes": scopesMigration(),
    "2026_11_27_0017_identity": identityMigration(),
    "2026_11_27_0018_password_confirmation": passwordConfirmationMigration(),
    "2026_11_27_0019_device_authorization": deviceAuthorizationMigration(),

    "2026_11_27_0020_registered_clients": registeredClientsMigration(),
    "2026_11_27_0021_backchannel_logout": backchannelLogoutMigration(dialect),

    "2026_11_27_0023_second_factors": secondFactorsMigration(),
    "2026_11_27_0024_passkeys": passkeysMigration(),
    "2026_11_27_0025_notifications": notificationsMigration(dialect),

    "2026_11_27_0026_groups": groupsMigration(),
    "2026_11_27_0027_audit_log": auditLogMigration(dialect),
    "2026_11_27_0028_last_login": lastLoginMigration(),
    "2026_11_27_0029_push_ends": pushEndsMigration(dialect),
  };
}
