import type { JWK } from "jose";
import type { SigningKeyStore, StoredSigningKey } from "../../../oidc/ports.js";
import type { Db } from "../../driver/database.js";
import { transaction } from "../../driver/prepared.js";

/** The OpenID Connect signing keys in `oidc_signing_keys` (migration 0011), shared by every node. */
export class KyselySigningKeyStore implements SigningKeyStore {
  constructor(private readonly db: Db) {}

  async list(): Promise<StoredSigningKey[]> {
    const rows = await this.db.selectFrom("oidc_signing_keys").selectAll().execute();
    return rows.map((row) => ({
      kid: row.kid,
      alg: row.alg,
      publicJwk: JSON.parse(row.public_jwk) as JWK,
      privateJwkSealed: row.private_jwk_sealed,
      createdAt: Number(row.created_at),
      retiredAt: row.retired_at === null ? null : Number(row.retired_at),
    }));
  }

  async insert(key: StoredSigningKey, retireOthersAt?: number): Promise<void> {
    await transaction(this.db, async (trx) => {
      if (retireOthersAt !== undefined) {
        await trx.updateTable("oidc_signing_keys").set({ retired_at: retireOthersAt }).where("retired_at", "is", null).execute();
      }
      await trx
        .insertInto("oidc_signing_keys")
        .values({
          kid: key.kid,
          alg: key.alg,
          public_jwk: JSON.stringify(key.publicJwk),
          private_jwk_sealed: key.privateJwkSealed,
          created_at: key.createdAt,
          retired_at: key.retiredAt,
        })
        .execute();
    });
  }

  async deleteRetiredBefore(cutoff: number): Promise<number> {
    const result = await this.db
      .deleteFrom("oidc_signing_keys")
      .where("retired_at", "is not", null)
      .where("retired_at", "<=", cutoff)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
