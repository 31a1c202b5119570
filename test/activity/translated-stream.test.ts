import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestApp, type TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { basicAuthFor, fileEvent, get, ocsData, publish } from "./support.js";

const API = "/ocs/v2.php/apps/activity/api/v2/activity?format=json";

describe("activity texts in the reader's language (issue 19)", () => {
  let t: TestApp;
  let anna: string;
  let bert: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "anna", displayName: "Anna" }));
    accepted(await t.services.users.create({ uid: "bert", displayName: "Bert" }));
    accepted(await t.services.preferences.set("anna", "core", "lang", "de"));
    anna = await basicAuthFor(t, "anna");
    bert = await basicAuthFor(t, "bert");
    for (const uid of ["anna", "bert"]) {
      await publish(t, [fileEvent(uid, { type: "file_created", subject: "created_self" })]);
    }
  });
  after(() => t.close());

  it("an activity is listed in German for a German user and in English for another, in the same request burst", async () => {
    const answers = await Promise.all([get(t, API, anna), get(t, API, bert), get(t, API, anna), get(t, API, bert)]);
    const subjects = answers.map((answer) => ocsData(answer)[0].subject_prepared as string);
    for (const german of [subjects[0], subjects[2]])
      assert.match(german ?? "", /^Sie haben <file [^>]*>doc\.txt<\/file> erstellt$/);
    for (const english of [subjects[1], subjects[3]]) assert.match(english ?? "", /^You created <file [^>]*>doc\.txt<\/file>$/);
    const rich = ocsData(answers[0] as (typeof answers)[0])[0].subject_rich;
    assert.equal(rich[0], "Sie haben {file} erstellt");
  });

  it("the user's own language wins over the request's Accept-Language", async () => {
    const answer = await get(t, API, anna, { "accept-language": "fr, en;q=0.5" });
    assert.match(ocsData(answer)[0].subject_prepared, /erstellt$/);
  });

  it("without a language of their own, a reader gets Accept-Language's, element cache or not", async () => {
    const [french, english, french2] = await Promise.all([
      get(t, API, bert, { "accept-language": "fr" }),
      get(t, API, bert, { "accept-language": "en" }),
      get(t, API, bert, { "accept-language": "fr-CA" }),
    ]);
    assert.match(ocsData(french)[0].subject_prepared, /^Vous avez créé <file/);
    assert.match(ocsData(english)[0].subject_prepared, /^You created <file/);
    assert.match(ocsData(french2)[0].subject_prepared, /^Vous avez créé <file/);
  });

  it("the server's default_language applies when neither the user nor the request names one", async () => {
    t.services.settings.set("default_language", "nl");
    try {
      const answer = await get(t, API, bert);
      assert.match(ocsData(answer)[0].subject_prepared, /^Je hebt <file [^>]*>doc\.txt<\/file> aangemaakt$/);
    } finally {
      t.services.settings.set("default_language", "");
    }
  });

  it("the legacy cloud/activity list is in the reader's language too", async () => {
    const answer = await get(t, "/ocs/v2.php/cloud/activity?format=json", anna);
    assert.equal(answer.statusCode, 200, answer.body);
    assert.equal(ocsData(answer)[0].subject, "Sie haben doc.txt erstellt");
  });

  it("a list of names is joined with the reader's own connector", async () => {
    await publish(t, [
      fileEvent("anna", {
        type: "file_changed",
        subject: "changed_by",
        user: "bert",
        subjectparams: [
          { type: "file", value: "/a.txt" },
          {
            type: "collection",
            value: [
              { type: "user", value: "bert" },
              { type: "user", value: "carl" },
              { type: "user", value: "dora" },
            ],
          },
        ],
      }),
    ]);
    const answer = await get(t, "/ocs/v2.php/cloud/activity?format=json", anna);
    assert.equal(ocsData(answer)[0].subject, "Bert, carl und dora hat a.txt geändert");
  });

  it("the stored activity stays untranslated", async () => {
    const rows = await t.testStorage.storage.db
      .selectFrom("activity")
      .select(["subject"])
      .where("affecteduser", "=", "anna")
      .execute();
    assert.ok(rows.every((row) => ["created_self", "changed_by"].includes(row.subject)));
  });
});
