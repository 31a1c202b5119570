import type { CodeRecord, RefreshTokenRecord } from "../../../oauth/ports.js";
import type { Db } from "../../driver/database.js";
import { PreparedQuery, type SlotFactory } from "../../driver/prepared.js";
import type { UsersTable } from "../../schema/accounts.js";
import { isAdminOf } from "../../schema/accounts.js";

/**
 * The statements of the token endpoint and of bearer authentication, compiled once (see
 * PreparedQuery): these run on every token, refresh, userinfo and API request.
 */
export function grantStatements(db: Db) {
  return {
    findCode: new PreparedQuery<{ codeHash: string }, CodeRow>((slot) => selectCode(db, slot)),
    consumeCode: new PreparedQuery<{ codeHash: string; now: number }, { grant_id: number }>((slot) =>
      db
        .updateTable("oauth2_codes")
        .set({ consumed_at: slot("now") })
        .where("code_hash", "=", slot("codeHash"))
        .where("consumed_at", "is", null)
        .returning("grant_id"),
    ),
    markPublicClient: new PreparedQuery<{ grantId: number }, unknown>((slot) =>
      db.updateTable("oauth2_grants").set({ public_client: 1 }).where("id", "=", slot("grantId")),
    ),
    insertAccessToken: new PreparedQuery<{ tokenHash: string; grantId: number; now: number; expiresAt: number }, { id: number }>(
      (slot) =>
        db
          .insertInto("oauth2_access_tokens")
          .values({
            token_hash: slot("tokenHash"),
            grant_id: slot("grantId"),
            created_at: slot("now"),
            expires_at: slot("expiresAt"),
          })
          .returning("id"),
    ),
    insertRefreshToken: new PreparedQuery<
      { tokenHash: string; grantId: number; accessTokenId: number; now: number; expiresAt: number },
      { id: number }
    >((slot) =>
      db
        .insertInto("oauth2_refresh_tokens")
        .values({
          token_hash: slot("tokenHash"),
          grant_id: slot("grantId"),
          access_token_id: slot("accessTokenId"),
          created_at: slot("now"),
          expires_at: slot("expiresAt"),
          rotated_at: null,
        })
        .returning("id"),
    ),
    findRefreshToken: new PreparedQuery<{ tokenHash: string }, RefreshRow>((slot) => selectRefreshToken(db, slot)),
    rotateRefreshToken: new PreparedQuery<{ id: number; now: number }, { access_token_id: number | null }>((slot) =>
      db
        .updateTable("oauth2_refresh_tokens")
        .set({ rotated_at: slot("now") })
        .where("id", "=", slot("id"))
        .where("rotated_at", "is", null)
        .returning("access_token_id"),
    ),
    deleteAccessToken: new PreparedQuery<{ id: number }, unknown>((slot) =>
      db.deleteFrom("oauth2_access_tokens").where("id", "=", slot("id")),
    ),
    deleteGraceOfSuccessor: new PreparedQuery<{ successorId: number }, unknown>((slot) =>
      db.deleteFrom("oauth2_refresh_grace").where("successor_id", "=", slot("successorId")),
    ),
    findAccessToken: new PreparedQuery<{ tokenHash: string }, AccessRow>((slot) =>
      db
        .selectFrom("oauth2_access_tokens as a")
        .innerJoin("oauth2_grants as g", "g.id", "a.grant_id")
        .innerJoin("oauth2_clients as c", "c.id", "g.client_id")
        .innerJoin("users as u", "u.uid", "g.uid")
        // The avatar's content type, so a UserInfo answer needs no statement of its own: on
        // PostgreSQL one round trip instead of two. By primary key; `data` is not read.
        .leftJoin("user_avatars as v", "v.uid", "u.uid")
        .select(["a.id", "a.grant_id", "c.client_id", "a.created_at", "a.expires_at", "g.scope"])
        .select(["u.uid", "u.display_name", "u.email", "u.enabled", "u.created_at as user_created_at"])
        .select(isAdminOf("u.uid"))
        .select(["u.email_verified", "u.language", "u.timezone", "v.content_type as avatar_content_type"])
        .where("a.token_hash", "=", slot("tokenHash")),
    ),
  };
}

/**
 * A code with everything its redemption checks (findCode; also read with the client, see
 * token-gate.ts): the same columns, whichever statement reads it.
 */
export function selectCode(db: Db, slot: SlotFactory<{ codeHash: string }>) {
  return db
    .selectFrom("oauth2_codes as c")
    .innerJoin("oauth2_grants as g", "g.id", "c.grant_id")
    .innerJoin("users as u", "u.uid", "g.uid")
    .select([
      "u.enabled as user_enabled",
      "c.grant_id",
      "g.client_id",
      "g.uid",
      "c.code_challenge",
      "c.code_challenge_method",
      "c.redirect_uri",
      "c.expires_at",
      "c.consumed_at",
      "g.scope",
      "g.auth_time",
      "g.nonce",
      "g.session_id_hash",
    ])
    .where("c.code_hash", "=", slot("codeHash"));
}

/** A refresh token with its grant, client and user (findRefreshToken; also read with the client). */
export function selectRefreshToken(db: Db, slot: SlotFactory<{ tokenHash: string }>) {
  return db
    .selectFrom("oauth2_refresh_tokens as r")
    .innerJoin("oauth2_grants as g", "g.id", "r.grant_id")
    .innerJoin("oauth2_clients as c", "c.id", "g.client_id")
    .innerJoin("users as u", "u.uid", "g.uid")
    .select([
      "u.enabled as user_enabled",
      "r.id",
      "r.grant_id",
      "g.client_id as client_internal_id",
      "c.client_id",
      "g.uid",
      "g.public_client",
      "r.access_token_id",
      "r.created_at",
      "r.expires_at",
      "r.rotated_at",
      "g.scope",
      "g.auth_time",
      "g.nonce",
      "g.session_id_hash",
    ])
    .where("r.token_hash", "=", slot("tokenHash"));
}

export function codeRecordOf(row: CodeRow): CodeRecord {
  return {
    grantId: Number(row.grant_id),
    clientInternalId: Number(row.client_id),
    uid: row.uid,
    challenge: row.code_challenge,
    challengeMethod: row.code_challenge_method,
    redirectUri: row.redirect_uri,
    expiresAt: row.expires_at,
    consumed: row.consumed_at !== null,
    userEnabled: row.user_enabled === 1,
    ...identityOf(row),
  };
}

export function refreshRecordOf(row: RefreshRow): RefreshTokenRecord {
  return {
    id: Number(row.id),
    grantId: Number(row.grant_id),
    clientInternalId: Number(row.client_internal_id),
    clientId: row.client_id,
    uid: row.uid,
    accessTokenId: row.access_token_id === null ? null : Number(row.access_token_id),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    rotated: row.rotated_at !== null,
    publicClient: row.public_client === 1,
    userEnabled: row.user_enabled === 1,
    ...identityOf(row),
  };
}

/** The grant's OpenID Connect columns (migration 0011), read with its codes and tokens. */
interface GrantIdentityRow {
  scope: string | null;
  auth_time: number | null;
  nonce: string | null;
  session_id_hash: string | null;
}

export function identityOf(row: GrantIdentityRow) {
  return {
    scope: row.scope,
    authTime: row.auth_time === null ? null : Number(row.auth_time),
    nonce: row.nonce,
    sessionIdHash: row.session_id_hash,
  };
}

export interface CodeRow extends GrantIdentityRow {
  grant_id: number;
  client_id: number;
  uid: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  redirect_uri: string | null;
  expires_at: number;
  consumed_at: number | null;
  user_enabled: number;
}

export interface RefreshRow extends GrantIdentityRow {
  id: number;
  grant_id: number;
  client_internal_id: number;
  client_id: string;
  uid: string;
  public_client: number;
  access_token_id: number | null;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
  user_enabled: number;
}

export interface AccessRow extends Omit<UsersTable, "created_at" | "password_hash" | "email_key" | "email_verified"> {
  email_verified: number;
  is_admin: number | boolean;
  id: number;
  grant_id: number;
  client_id: string;
  created_at: number;
  expires_at: number;
  user_created_at: number;
  scope: string | null;
  /** The user's avatar's content type; null when the user has none. */
  avatar_content_type: string | null;
}
