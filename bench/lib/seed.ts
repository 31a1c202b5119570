import { randomBytes } from "node:crypto";
import type { NewUser } from "../../src/accounts/users.js";
import type { Services } from "../../src/services.js";
import type { Db } from "../../src/storage/driver/database.js";

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
  await createBenchUser(services, {
    uid: account.uid,
    password: randomBytes(12).toString("hex"),
    displayName: account.displayName,
    email: account.email,
  });
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

/**
 * A user of a bench's seed. This build refuses with a value; a build from before refusals were
 * values (compared by the A/B harnesses) answers the user itself and throws instead.
 */
export async function createBenchUser(services: Pick<Services, "users">, user: NewUser): Promise<void> {
  const created: unknown = await services.users.create(user);
  if (typeof created === "object" && created !== null && "ok" in created && created.ok === false) {
    throw new Error(`bench user ${user.uid} not created: ${(created as { message?: string }).message}`);
  }
}
