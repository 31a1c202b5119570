import type { PasskeyRecord, PasskeyStore, WebAuthnChallengeStore } from "../../../second-factor/ports.js";
import type { Db } from "../../driver/database.js";

type CredentialRow = {
  credential_id: string;
  uid: string;
  name: string;
  public_key: string;
  sign_count: number | string;
  transports: string;
  created_at: number | string;
  last_used_at: number | string | null;
};

function toRecord(row: CredentialRow): PasskeyRecord {
  return {
    id: row.credential_id,
    uid: row.uid,
    name: row.name,
    publicKey: row.public_key,
    counter: Number(row.sign_count),
    transports: row.transports === "" ? [] : row.transports.split(","),
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

const COLUMNS = ["credential_id", "uid", "name", "public_key", "sign_count", "transports", "created_at", "last_used_at"] as const;

/** `webauthn_credentials` (migration 0024): a use is a conditional update on the counter. */
export class SqlPasskeyStore implements PasskeyStore {
  constructor(private readonly db: Db) {}

  async add(record: PasskeyRecord): Promise<boolean> {
    const result = await this.db
      .insertInto("webauthn_credentials")
      .values({
        credential_id: record.id,
        uid: record.uid,
        name: record.name,
        public_key: record.publicKey,
        sign_count: record.counter,
        transports: record.transports.join(","),
        created_at: record.createdAt,
        last_used_at: record.lastUsedAt,
      })
      .onConflict((oc) => oc.column("credential_id").doNothing())
      .returning("credential_id")
      .executeTakeFirst();
    return result !== undefined;
  }

  async listFor(uid: string): Promise<PasskeyRecord[]> {
    const rows = await this.db
      .selectFrom("webauthn_credentials")
      .select(COLUMNS)
      .where("uid", "=", uid)
      .orderBy("created_at")
      .orderBy("credential_id")
      .execute();
    return rows.map(toRecord);
  }

  async find(id: string): Promise<PasskeyRecord | undefined> {
    const row = await this.db
      .selectFrom("webauthn_credentials")
      .select(COLUMNS)
      .where("credential_id", "=", id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async recordUse(id: string, seen: number, counter: number, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable("webauthn_credentials")
      .set({ sign_count: counter, last_used_at: at })
      .where("credential_id", "=", id)
      .where("sign_count", "=", seen)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async remove(uid: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("webauthn_credentials")
      .where("uid", "=", uid)
      .where("credential_id", "=", id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async removeAll(uid: string): Promise<boolean> {
    const result = await this.db.deleteFrom("webauthn_credentials").where("uid", "=", uid).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/** `webauthn_challenges` (migration 0024): consumed by a conditional delete. */
export class SqlWebAuthnChallengeStore implements WebAuthnChallengeStore {
  constructor(private readonly db: Db) {}

  async save(challenge: string, binding: string, expiresAt: number, now: number): Promise<void> {
    await this.db.deleteFrom("webauthn_challenges").where("expires_at", "<=", now).execute();
    await this.db.insertInto("webauthn_challenges").values({ challenge, binding, expires_at: expiresAt }).execute();
  }

  async consume(challenge: string, binding: string, now: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom("webauthn_challenges")
      .where("challenge", "=", challenge)
      .where("binding", "=", binding)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
