import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { createTestServices, type TestServices } from "../support/services.js";

describe("user preferences (./occ user:setting, issue 19)", () => {
  let t: TestServices;
  const occ = (...argv: string[]) => runOccInProcess(argv, t.testStorage);

  before(async () => {
    t = await createTestServices();
    accepted(await t.services.users.create({ uid: "anna", password: "anna password" }));
    accepted(await t.services.users.create({ uid: "bert", password: "bert password" }));
  });
  after(() => t.close());

  it("user:setting <uid> core lang de sets the language that the user row carries to every request", async () => {
    const set = await occ("user:setting", "anna", "core", "lang", "de");
    assert.equal(set.code, 0, set.err);
    assert.equal((await t.services.users.find("anna"))?.language, "de");
    const read = await occ("user:setting", "anna", "core", "lang");
    assert.equal(read.out.trim(), "de");
    assert.equal((await t.services.users.find("bert"))?.language, null, "another user is untouched");
  });

  it("a regional language code is stored as the catalogue language it selects (de_AT → de)", async () => {
    assert.equal((await occ("user:setting", "bert", "core", "lang", "--value=fr_CA")).code, 0);
    assert.equal((await t.services.users.find("bert"))?.language, "fr");
  });

  it("a language Keystream has no catalogue for is refused and changes nothing", async () => {
    const result = await occ("user:setting", "anna", "core", "lang", "pt");
    assert.notEqual(result.code, 0);
    assert.match(result.err, /not a language Keystream has/);
    assert.equal((await t.services.users.find("anna"))?.language, "de");
  });

  it("core timezone accepts IANA names only", async () => {
    assert.equal((await occ("user:setting", "anna", "core", "timezone", "Europe/Berlin")).code, 0);
    assert.equal((await t.services.users.find("anna"))?.timeZone, "Europe/Berlin");
    const refused = await occ("user:setting", "anna", "core", "timezone", "Mars/Olympus");
    assert.notEqual(refused.code, 0);
    assert.match(refused.err, /not a time zone/);
  });

  it("other preferences are stored per app and key, listed together with the language", async () => {
    assert.equal((await occ("user:setting", "anna", "activity", "notify_email", "yes")).code, 0);
    const listed = await occ("user:setting", "anna", "--output=json");
    assert.deepEqual(JSON.parse(listed.out), {
      activity: { notify_email: "yes" },
      core: { lang: "de", timezone: "Europe/Berlin" },
    });
  });

  it("reading a preference that is not set fails, unless a default is given", async () => {
    const missing = await occ("user:setting", "bert", "core", "timezone");
    assert.notEqual(missing.code, 0);
    assert.match(missing.err, /does not exist/);
    const fallback = await occ("user:setting", "bert", "core", "timezone", "--default-value=UTC");
    assert.equal(fallback.out.trim(), "UTC");
  });

  it("--delete removes a preference; the language then follows the browser again", async () => {
    assert.equal((await occ("user:setting", "anna", "core", "lang", "--delete")).code, 0);
    assert.equal((await t.services.users.find("anna"))?.language, null);
    assert.equal((await occ("user:setting", "anna", "activity", "notify_email", "--delete")).code, 0);
    const gone = await occ("user:setting", "anna", "activity", "notify_email", "--delete", "--error-if-not-exists");
    assert.notEqual(gone.code, 0);
  });

  it("--update-only does not create a preference", async () => {
    const result = await occ("user:setting", "bert", "activity", "digest", "1", "--update-only");
    assert.notEqual(result.code, 0);
    assert.equal(accepted(await t.services.preferences.get("bert", "activity", "digest")), undefined);
  });

  it("an unknown user is an error", async () => {
    const result = await occ("user:setting", "nobody", "core", "lang", "de");
    assert.notEqual(result.code, 0);
    assert.match(result.err, /does not exist/);
  });

  it("a deleted user's preferences go with them", async () => {
    accepted(await t.services.preferences.set("bert", "activity", "x", "1"));
    accepted(await t.services.users.delete("bert"));
    const rows = await t.testStorage.storage.db.selectFrom("user_preferences").selectAll().where("uid", "=", "bert").execute();
    assert.equal(rows.length, 0);
  });
});
