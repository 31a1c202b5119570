import { after, before, describe, it } from "node:test";
import type { User } from "../../src/accounts/ports.js";
import { DEFAULT_CLIENTS } from "../../src/oauth/domain/default-clients.js";
import { SqlAppPasswordStore } from "../../src/storage/stores/accounts/account-app-password-store.js";
import { SqlAvatarStore } from "../../src/storage/stores/accounts/account-avatar-store.js";
import { SqlPasswordConfirmationStore } from "../../src/storage/stores/accounts/account-password-confirmation-store.js";
import { SqlPreferenceStore } from "../../src/storage/stores/accounts/account-preference-store.js";
import { SqlSessionStore } from "../../src/storage/stores/accounts/account-session-store.js";
import { SqlUserStore } from "../../src/storage/stores/accounts/account-user-store.js";
import { SqlAuditStore } from "../../src/storage/stores/audit/audit-store.js";
import { SqlGroupStore } from "../../src/storage/stores/groups/group-store.js";
import { SqlJobLeaseStore } from "../../src/storage/stores/jobs/job-lease-store.js";
import { SqlLoginFlowStore } from "../../src/storage/stores/login-flow/login-flow-store.js";
import { SqlNotificationStore } from "../../src/storage/stores/notifications/notification-store.js";
import { KyselyClientStore } from "../../src/storage/stores/oauth/oauth-client-store.js";
import { SqlPasskeyStore, SqlWebAuthnChallengeStore } from "../../src/storage/stores/second-factor/passkey-store.js";
import {
  SqlRecoveryCodeStore,
  SqlSecondFactorOverview,
  SqlTotpStore,
} from "../../src/storage/stores/second-factor/second-factor-store.js";
import { type DomainStores, memoryStores } from "../support/memory/index.js";
import { createTestStorage, testDatabaseDialect } from "../support/storage.js";

/**
 * The stores under contract, and what a case needs around them: users to own rows (a foreign key
 * asks for one), and an OAuth client admitting a group (oauth2_client_groups).
 */
export interface ContractStores extends DomainStores {
  /** A new user with a uid no other case uses; `overrides` change its fields. */
  user(overrides?: Partial<User>): Promise<string>;
  /** A new name no other case uses, starting with `prefix`. */
  unique(prefix: string): string;
  /** Makes an OAuth client named `clientName` admit group `gid`. */
  admitGroup(clientName: string, gid: string): Promise<void>;
}

interface Subject {
  name: string;
  open(): Promise<{ stores: ContractStores; close(): Promise<void> }>;
}

/** A sealer that only marks its envelope: the contracts check storage, not encryption. */
const plainSealer = {
  encrypt: (plaintext: string) => `sealed:${plaintext}`,
  decrypt: (envelope: string) => envelope.slice("sealed:".length),
};

let counter = 0;
function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}`;
}

function withUsers(stores: DomainStores, admitGroup: ContractStores["admitGroup"]): ContractStores {
  return {
    ...stores,
    unique,
    admitGroup,
    async user(overrides = {}) {
      const uid = overrides.uid ?? unique("user");
      await stores.users.insert(
        {
          uid,
          displayName: `User ${uid}`,
          email: null,
          emailVerified: false,
          enabled: true,
          isAdmin: false,
          createdAt: 1_800_000_000,
          language: null,
          timeZone: null,
          ...overrides,
        },
        "hash",
        { reuseDeletedUid: false },
      );
      return uid;
    },
  };
}

const memory: Subject = {
  name: "memory",
  async open() {
    const stores = memoryStores();
    const admitGroup = async (clientName: string, gid: string) => {
      const id = stores.tables.id();
      stores.tables.clientNames.set(id, clientName);
      stores.tables.clientGroups.set(id, new Set([gid]));
    };
    return { stores: withUsers(stores, admitGroup), close: async () => {} };
  },
};

const sql: Subject = {
  name: `sql on ${testDatabaseDialect}`,
  async open() {
    const testStorage = await createTestStorage();
    const { db, dialect } = testStorage.storage;
    const admitGroup = async (clientName: string, gid: string) => {
      const client = await db
        .insertInto("oauth2_clients")
        .values({
          name: clientName,
          client_id: unique("client-id-"),
          secret_encrypted: "sealed",
          redirect_uri: "https://app.example/callback",
          allow_subdomains: 0,
          trusted: 0,
          created_at: 1_800_000_000,
          post_logout_redirect_uri: null,
          trusted_scopes: null,
          registered_at: null,
          last_used_at: null,
          backchannel_logout_uri: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db.insertInto("oauth2_client_groups").values({ client_id: client.id, gid }).execute();
    };
    const stores: DomainStores = {
      users: new SqlUserStore(db),
      sessions: new SqlSessionStore(db),
      passwordConfirmations: new SqlPasswordConfirmationStore(db),
      appPasswords: new SqlAppPasswordStore(db),
      avatars: new SqlAvatarStore(db),
      preferences: new SqlPreferenceStore(db),
      groups: new SqlGroupStore(db, dialect),
      audit: new SqlAuditStore(db, dialect),
      notifications: new SqlNotificationStore(db),
      totp: new SqlTotpStore(db),
      recoveryCodes: new SqlRecoveryCodeStore(db),
      passkeys: new SqlPasskeyStore(db),
      challenges: new SqlWebAuthnChallengeStore(db),
      secondFactorOverview: new SqlSecondFactorOverview(db),
      jobLeases: new SqlJobLeaseStore(db),
      loginFlows: new SqlLoginFlowStore(db),
      clients: new KyselyClientStore(db, plainSealer, DEFAULT_CLIENTS, { info() {} }),
    };
    return { stores: withUsers(stores, admitGroup), close: () => testStorage.cleanup() };
  },
};

/** A contract: cases by the rule they check, each a function of the stores. */
export type Contract = Record<string, (stores: ContractStores) => Promise<void>>;

/**
 * Runs every case of the contract against every implementation (kysely's test/node/src/test-setup.ts
 * runs each case on each dialect the same way): the memory stores and the SQL stores on the test
 * database. Cases share one store per implementation, so each makes its own users and names.
 */
export function runContract(port: string, contract: Contract): void {
  for (const subject of [memory, sql]) {
    describe(`${port} contract: ${subject.name}`, () => {
      let opened: Awaited<ReturnType<Subject["open"]>>;
      before(async () => {
        opened = await subject.open();
      });
      after(() => opened.close());
      for (const [rule, check] of Object.entries(contract)) it(rule, () => check(opened.stores));
    });
  }
}
