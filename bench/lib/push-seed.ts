/**
 * The push scenarios' accounts (bench/scenarios/push.ts): many users, each with one app password,
 * written straight into Keystream's tables in bulk as `occ user:add` and the app password page
 * write them, without an account password (no argon2 per user: the sockets authenticate with app
 * passwords, which are stored as SHA-256). And one administrator who publishes the activities.
 */
import pino from "pino";
import { newAppPassword } from "../../src/accounts/app-passwords.js";
import { createServices } from "../../src/services.js";
import type { Storage } from "../../src/storage/driver/connect.js";
import { accepted } from "../../test/support/results.js";

export interface PushAccount {
  uid: string;
  secret: string;
}

const CHUNK = 500;
export const PUSH_ADMIN = "push-admin";

/** `users` users `push-user-00001`…, each with an app password; the administrator's app password too. */
export async function seedPushAccounts(
  storage: Storage,
  dataDir: string,
  users: number,
): Promise<{ accounts: PushAccount[]; admin: PushAccount }> {
  const services = createServices({ storage, dataDir, log: pino({ level: "silent" }) });
  accepted(await services.users.create({ uid: PUSH_ADMIN, displayName: "Push bench administrator", isAdmin: true }));
  const admin = { uid: PUSH_ADMIN, secret: accepted(await services.appPasswords.create(PUSH_ADMIN, "push bench")).secret };

  const now = Math.floor(Date.now() / 1000);
  const width = String(users).length;
  const accounts: PushAccount[] = [];
  for (let start = 0; start < users; start += CHUNK) {
    const uids = Array.from(
      { length: Math.min(CHUNK, users - start) },
      (_, i) => `push-user-${String(start + i + 1).padStart(width, "0")}`,
    );
    const passwords = uids.map((uid) => {
      const made = newAppPassword(uid, "push bench", now);
      if (!made.ok) throw new Error(made.message);
      return made.value;
    });
    await storage.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("users")
        .values(
          uids.map((uid) => ({
            uid,
            display_name: uid,
            email: null,
            email_key: null,
            email_verified: 0,
            password_hash: null,
            enabled: 1,
            is_admin: 0,
            created_at: now,
            language: null,
            timezone: null,
          })),
        )
        .execute();
      await trx
        .insertInto("app_passwords")
        .values(
          passwords.map(({ record }) => ({
            uid: record.uid,
            name: record.name,
            token_hash: record.tokenHash,
            created_at: record.createdAt,
            last_used_at: null,
          })),
        )
        .execute();
    });
    accounts.push(...passwords.map(({ record, secret }) => ({ uid: record.uid, secret })));
  }
  return { accounts, admin };
}
