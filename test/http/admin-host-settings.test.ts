import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { hostSettingDefinitions } from "../../src/config/host-settings.js";
import { escapeHtml } from "../../src/http/html.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";

const AREA = "/index.php/settings/admin/settings";

describe("administration console: the settings area", () => {
  let t: TestApp;
  let root: FormClient;
  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "root", password: "root password", isAdmin: true }));
    accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
    root = new FormClient(t.app);
    assert.equal((await root.login("root", "root password")).statusCode, 303);
  });
  after(() => t.close());

  const token = async () => requestTokenOf((await root.get(AREA)).body);

  it("shows every host setting occ knows, with its current value, its default and what it means", async () => {
    const page = await root.get(AREA);
    assert.equal(page.statusCode, 200);
    for (const [name, setting] of Object.entries(hostSettingDefinitions)) {
      assert.ok(page.body.includes(`<h3><code>${escapeHtml(name)}</code></h3>`), name);
      assert.ok(page.body.includes(escapeHtml(setting.description)), `${name}'s description`);
    }
    assert.match(
      page.body,
      /Current value: <code>86400<\/code> <span class="muted">\(default\)<\/span> · Default: <code>86400<\/code>/,
    );
    assert.match(page.body, /aria-current="page">Settings</);
    const german = await root.get(AREA, { "accept-language": "de" });
    assert.match(german.body, /Sekunden, die eine Anmeldesitzung ohne Aktivität besteht\./);
  });

  it("a change answers 303 to the area, applies at once, says so at the top once; resetting brings the default back", async () => {
    const changed = await root.post(`${AREA}/session.lifetime`, { requesttoken: await token(), value: "3600" });
    assert.equal(changed.statusCode, 303);
    assert.equal(changed.headers.location, `${AREA}#host-settings`);
    assert.equal(t.services.settings.get("session.lifetime"), 3600);
    const shown = await root.get(AREA);
    assert.match(shown.body, /id="host-settings-notice" role="status">session\.lifetime is now 3600\.<\/p>/);
    assert.doesNotMatch((await root.get(AREA)).body, /host-settings-notice/, "a reload shows it no more");
    const listed = await runOccInProcess(["config:system:get", "session.lifetime"], t.testStorage);
    assert.equal(listed.out.trim(), "3600", "occ reads what the page wrote");
    const reset = await root.post(`${AREA}/session.lifetime/reset`, { requesttoken: await token() });
    assert.equal(reset.statusCode, 303);
    assert.equal(t.services.settings.getStored("session.lifetime"), undefined);
    assert.match((await root.get(AREA)).body, /session\.lifetime is back to its default, 86400\./);
    const flag = await root.post(`${AREA}/token_auth_enforced`, { requesttoken: await token(), value: "true" });
    assert.equal(flag.statusCode, 303);
    assert.equal(t.services.settings.get("token_auth_enforced"), true);
    await root.post(`${AREA}/token_auth_enforced/reset`, { requesttoken: await token() });
  });

  it("a value occ refuses is refused here with occ's message, the form keeps it, nothing is written", async () => {
    const before = t.services.settings.getStored("overwrite.cli.url");
    for (const [name, value] of [
      ["session.lifetime", "ten minutes"],
      ["session.lifetime", "5"],
      ["overwrite.cli.url", "ftp://cloud.example.com"],
      ["oidc.dynamic_registration", "everyone"],
    ] as const) {
      const refused = await root.post(`${AREA}/${name}`, { requesttoken: await token(), value });
      assert.equal(refused.statusCode, 400, `${name}=${value}`);
      const occ = await runOccInProcess(["config:system:set", name, `--value=${value}`], t.testStorage);
      assert.equal(occ.code, 1);
      const message = occ.err.trim().replace(/^error: /, "");
      assert.match(message, new RegExp(`^invalid value for ${name.replace(/\./g, "\\.")}: expected `));
      assert.ok(refused.body.includes(escapeHtml(message)), `occ says "${message}", the page too`);
      assert.match(
        refused.body,
        new RegExp(`id="host-settings-error" role="alert">${name.replace(/\./g, "\\.")} was not changed:`),
      );
      if (name !== "oidc.dynamic_registration") {
        assert.ok(refused.body.includes(`name="value" value="${escapeHtml(value)}"`), "the form keeps the value sent");
      }
      assert.match(refused.body, /aria-invalid="true"/);
    }
    assert.equal(t.services.settings.getStored("overwrite.cli.url"), before);
    assert.equal(t.services.settings.get("session.lifetime"), 86_400);
  });

  it("a config.json that cannot be written is a server error (500), not a refusal of the value, and its message is not shown", async () => {
    const { settings } = t.services;
    const write = settings.set;
    const diskError = Object.assign(new Error("EACCES: permission denied, open '/data/config.json.7.tmp'"), { code: "EACCES" });
    settings.set = () => {
      throw diskError;
    };
    try {
      const failed = await root.post(`${AREA}/session.lifetime`, { requesttoken: await token(), value: "3600" });
      assert.equal(failed.statusCode, 500);
      assert.doesNotMatch(failed.body, /EACCES|host-settings-error/);
    } finally {
      settings.set = write;
    }
    assert.equal(settings.get("session.lifetime"), 86_400);
    const refused = await root.post(`${AREA}/session.lifetime`, { requesttoken: await token(), value: "5" });
    assert.equal(refused.statusCode, 400, "a value occ refuses is still the form's refusal");
  });

  it("maintenance mode is shown but changed only with occ; an unknown name is 404; only administrators change settings, with the CSRF token", async () => {
    const page = (await root.get(AREA)).body;
    assert.doesNotMatch(page, /action="\/index\.php\/settings\/admin\/settings\/maintenance"/);
    assert.equal((await root.post(`${AREA}/maintenance`, { requesttoken: await token(), value: "true" })).statusCode, 404);
    assert.equal(t.services.settings.get("maintenance"), false);
    assert.equal((await root.post(`${AREA}/no.such.setting`, { requesttoken: await token(), value: "1" })).statusCode, 404);
    assert.equal((await root.post(`${AREA}/session.lifetime`, { requesttoken: "forged", value: "600" })).statusCode, 403);
    const alice = new FormClient(t.app);
    await alice.login("alice", "alice password");
    const aliceToken = requestTokenOf((await alice.get("/index.php/settings/personal")).body);
    assert.equal((await alice.get(AREA)).statusCode, 403);
    assert.equal((await alice.post(`${AREA}/session.lifetime`, { requesttoken: aliceToken, value: "600" })).statusCode, 403);
    assert.equal(t.services.settings.get("session.lifetime"), 86_400);
  });
});
