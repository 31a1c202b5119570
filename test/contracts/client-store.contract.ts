import assert from "node:assert/strict";
import type { ClientFields } from "../../src/oauth/domain/client-rules.js";
import { DEFAULT_CLIENTS } from "../../src/oauth/domain/default-clients.js";
import type { Contract, ContractStores } from "./harness.js";

function fields(s: ContractStores, overrides: Partial<ClientFields> = {}): ClientFields {
  const name = s.unique("Client ");
  return {
    name,
    clientId: s.unique("client-id-").padEnd(32, "x"),
    secret: "s".repeat(32),
    redirectUri: "https://app.example/callback",
    allowSubdomains: false,
    trusted: false,
    resourceServer: false,
    ...overrides,
  };
}

/** oauth/ports.ts ClientStore, case by case. */
export const clientStoreContract: Contract = {
  "ownCloud's default clients are there on first read": async (s) => {
    const names = (await s.clients.list()).map((c) => c.name);
    for (const d of DEFAULT_CLIENTS) assert.ok(names.includes(d.name), d.name);
    const first = DEFAULT_CLIENTS[0];
    assert.equal((await s.clients.findByClientId(first?.clientId ?? ""))?.name, first?.name);
  },

  "an inserted client reads back by id, client id and name, optional fields absent; list is in registration order": async (s) => {
    const written = fields(s, { postLogoutRedirectUri: null, trustedScopes: null, accountAccess: false });
    const inserted = await s.clients.insert(written, 100);
    assert.ok(inserted);
    const { postLogoutRedirectUri: _p, trustedScopes: _t, accountAccess: _a, ...readBack } = written;
    assert.deepEqual(await s.clients.findById(inserted.id), { ...readBack, id: inserted.id });
    assert.deepEqual(await s.clients.findByClientId(written.clientId), { ...readBack, id: inserted.id });
    assert.deepEqual(await s.clients.findByName(written.name), { ...readBack, id: inserted.id });
    const later = await s.clients.insert(fields(s), 101);
    const ids = (await s.clients.list()).map((c) => c.id);
    assert.ok(ids.indexOf(inserted.id) < ids.indexOf(later?.id ?? -1));
    assert.equal(await s.clients.findById(-1), undefined);
    assert.equal(await s.clients.findByName(s.unique("absent")), undefined);
  },

  "insert answers undefined when the name or the client id is taken, writing nothing": async (s) => {
    const taken = fields(s);
    await s.clients.insert(taken, 1);
    const count = (await s.clients.list()).length;
    assert.equal(await s.clients.insert(fields(s, { name: taken.name }), 2), undefined);
    assert.equal(await s.clients.insert(fields(s, { clientId: taken.clientId }), 2), undefined);
    assert.equal((await s.clients.list()).length, count);
  },

  "update changes what is given and refuses a name or client id of another client": async (s) => {
    const other = fields(s);
    await s.clients.insert(other, 1);
    const client = await s.clients.insert(fields(s), 1);
    assert.ok(client);
    assert.equal(await s.clients.update(client.id, { trusted: true, trustedScopes: "openid", secret: "n".repeat(32) }), true);
    const read = await s.clients.findById(client.id);
    assert.deepEqual(
      [read?.trusted, read?.trustedScopes, read?.secret, read?.name],
      [true, "openid", "n".repeat(32), client.name],
    );
    assert.equal(await s.clients.update(client.id, { name: other.name }), false);
    assert.equal(await s.clients.update(client.id, { clientId: other.clientId }), false);
    assert.equal((await s.clients.findById(client.id))?.name, client.name);
    assert.equal(await s.clients.update(client.id, { name: client.name }), true, "its own name is no collision");
  },

  "markUsed records a registered client's use only; unused registered clients are removed by their last use": async (s) => {
    const admin = await s.clients.insert(fields(s), 1);
    const usedLate = await s.clients.insert(fields(s, { registeredAt: 10 }), 10);
    const neverUsed = await s.clients.insert(fields(s, { registeredAt: 10 }), 10);
    assert.ok(admin && usedLate && neverUsed);
    await s.clients.markUsed(admin.id, 500);
    await s.clients.markUsed(usedLate.id, 500);
    assert.equal((await s.clients.findById(admin.id))?.lastUsedAt, undefined);
    assert.equal((await s.clients.findById(usedLate.id))?.lastUsedAt, 500);
    // Every other registered client of these cases is newer than this cutoff: the count is exact.
    assert.equal(await s.clients.removeUnusedRegistered(100), 1);
    assert.equal(await s.clients.findById(neverUsed.id), undefined);
    assert.ok(await s.clients.findById(usedLate.id));
    assert.ok(await s.clients.findById(admin.id), "an administrator's client is never removed as unused");
  },

  "remove answers whether the client was there": async (s) => {
    const client = await s.clients.insert(fields(s), 1);
    assert.ok(client);
    assert.equal(await s.clients.remove(client.id), true);
    assert.equal(await s.clients.remove(client.id), false);
    assert.equal(await s.clients.findById(client.id), undefined);
  },

  "allowed groups replace each other, ordered; no group admits everyone, a group admits its members only": async (s) => {
    const client = await s.clients.insert(fields(s), 1);
    assert.ok(client);
    const [member, outsider] = [await s.user(), await s.user()];
    const [gz, ga] = [s.unique("zz-"), s.unique("aa-")];
    for (const gid of [gz, ga]) await s.groups.insert({ gid, displayName: gid }, 1);
    await s.groups.addMember(gz, member);
    assert.equal(await s.clients.admits(client.id, outsider), true, "no group: everyone");
    assert.equal(await s.clients.setAllowedGroups(client.id, [gz, ga]), 0, "no grant to end");
    assert.deepEqual([...(await s.clients.allowedGroups([client.id]))], [[client.id, [ga, gz]]]);
    assert.equal(await s.clients.admits(client.id, member), true);
    assert.equal(await s.clients.admits(client.id, outsider), false);
    await s.clients.setAllowedGroups(client.id, []);
    assert.deepEqual(await s.clients.allowedGroups([client.id]), new Map());
    assert.deepEqual(await s.clients.allowedGroups([]), new Map());
  },

  "allowed groups must exist: an unknown one is refused and nothing is written": async (s) => {
    const client = await s.clients.insert(fields(s), 1);
    assert.ok(client);
    const gid = s.unique("known-");
    await s.groups.insert({ gid, displayName: gid }, 1);
    await s.clients.setAllowedGroups(client.id, [gid]);
    await assert.rejects(s.clients.setAllowedGroups(client.id, [gid, s.unique("unknown-")]));
    assert.deepEqual([...(await s.clients.allowedGroups([client.id]))], [[client.id, [gid]]]);
  },
};
