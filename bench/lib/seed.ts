import { randomBytes } from "node:crypto";
import type { Services } from "../../src/services.js";
import type { Db } from "../../src/storage/driver/database.js";
import { accepted } from "../../test/support/results.js";

export interface BenchAccount {
  uid: string;
  displayName: string;
  email: string;
  clientName: string;
  client: { id: string; secret: string; redirectUri: string };
}

/**
 * The user and the confidential client a bench target mints its grants for (bench/lib/mint.ts);
 * answers the client's internal id. Shared by the bench targets and the A/B harness, whose
 * services come from another build's `dist/` (same shape).
 */
export async function seedBenchAccount(
  services: Pick<Services, "users" | "oauth">,
  db: Db,
  account: BenchAccount,
): Promise<number> {
  accepted(
    await services.users.create({
      uid: account.uid,
      password: randomBytes(12).toString("hex"),
      displayName: account.displayName,
      email: account.email,
    }),
  );
  const added = await services.oauth.clients.add({
    name: account.clientName,
    clientId: account.client.id,
    secret: account.client.secret,
    redirectUri: account.client.redirectUri,
    allowSubdomains: "false",
    trusted: "false",
    forceTrust: "true",
  });
  if (!added.ok) throw new Error(`bench client not added: ${added.message}`);
  const client = await db
    .selectFrom("oauth2_clients")
    .select("id")
    .where("client_id", "=", account.client.id)
    .executeTakeFirstOrThrow();
  return Number(client.id);
}
