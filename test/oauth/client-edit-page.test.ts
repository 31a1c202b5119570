import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { basic, loggedIn, oauthAppWithLoggedInAdmin, tokenRequest, WEB_CLIENT } from "./support.js";

const ADMIN = "/index.php/settings/admin/applications";
const CLIENTS = "/index.php/apps/oauth2/clients";

describe("admin page: editing a client and its secret", () => {
  const site = oauthAppWithLoggedInAdmin();

  const webClient = async () => {
    const client = (await site.t.services.oauth.clients.list()).find((c) => c.clientId === WEB_CLIENT.clientId);
    assert.ok(client);
    return client;
  };
  const adminToken = async () => requestTokenOf((await site.admin.get(ADMIN)).body);
  const editForm = (client: Awaited<ReturnType<typeof webClient>>, changes: Record<string, string | undefined>) => {
    const form: Record<string, string> = {
      name: client.name,
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      post_logout_redirect_uri: client.postLogoutRedirectUri ?? "",
      ...(client.allowSubdomains ? { allow_subdomains: "1" } : {}),
      ...(client.trusted ? { trusted: "1" } : {}),
      ...(client.resourceServer ? { resource_server: "1" } : {}),
    };
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) delete form[key];
      else form[key] = value;
    }
    return form;
  };
  // Whether the token endpoint accepts the secret: a wrong one is 401 invalid_client, a right one
  // gets past client authentication to the (refused) refresh token.
  const secretWorks = async (secret: string) =>
    (
      await tokenRequest(
        site.t,
        { grant_type: "refresh_token", refresh_token: "none" },
        { authorization: basic(WEB_CLIENT.clientId, secret) },
      )
    ).statusCode !== 401;

  it("an administrator edits a client's fields through the checks of oauth2:modify-client", async () => {
    const client = await webClient();
    const response = await site.admin.post(`${CLIENTS}/${client.id}/edit`, {
      requesttoken: await adminToken(),
      ...editForm(client, { name: "Web App 2", redirect_uri: "https://app2.example.com/cb", allow_subdomains: "1" }),
    });
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /id="oauth2-client-saved"/);
    const edited = await webClient();
    assert.equal(edited.name, "Web App 2");
    assert.equal(edited.redirectUri, "https://app2.example.com/cb");
    assert.equal(edited.allowSubdomains, true);
    assert.equal(edited.secret, WEB_CLIENT.secret, "the secret is not touched by the edit form");

    const refused = await site.admin.post(`${CLIENTS}/${client.id}/edit`, {
      requesttoken: await adminToken(),
      ...editForm(edited, { redirect_uri: "https://app.example.com/cb#fragment" }),
    });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /The redirect URL must not contain a fragment/);
    assert.equal((await webClient()).redirectUri, "https://app2.example.com/cb");

    const localhost = await site.admin.post(`${CLIENTS}/${client.id}/edit`, {
      requesttoken: await adminToken(),
      ...editForm(edited, { redirect_uri: "http://localhost:8080/cb", trusted: "1" }),
    });
    assert.equal(localhost.statusCode, 400, "trusting localhost needs force-trust, as occ");
    assert.match(localhost.body, /Cannot set localhost as trusted\./);
  });

  it("a refused client change is said in the administrator's language on the page (the add form coming back as sent), and in ownCloud's English to occ", async () => {
    const client = await webClient();
    accepted(await site.t.services.preferences.set("root", "core", "lang", "de"));
    try {
      const refused = await site.admin.post(`${CLIENTS}/${client.id}/edit`, {
        requesttoken: await adminToken(),
        ...editForm(client, { redirect_uri: "http://localhost:8080/cb", trusted: "1" }),
      });
      assert.equal(refused.statusCode, 400);
      assert.match(
        refused.body,
        /<p class="error" id="oauth2-client-error">Eine Anwendung auf localhost kann nicht als vertrauenswürdig gelten\.<\/p>/,
      );
      assert.doesNotMatch(refused.body, /Cannot set localhost as trusted/);

      const taken = await site.admin.post(CLIENTS, {
        requesttoken: await adminToken(),
        name: client.name,
        redirect_uri: "https://x.example/cb",
      });
      assert.equal(taken.statusCode, 400);
      assert.match(taken.body, new RegExp(`Eine Anwendung namens „${client.name}“ gibt es bereits\\.`));
      // The refused form comes back filled in, to correct rather than type again.
      assert.match(taken.body, /id="oauth2-redirect" name="redirect_uri" required value="https:\/\/x\.example\/cb"/);
    } finally {
      accepted(await site.t.services.preferences.set("root", "core", "lang", "en"));
    }
    // The same refusal through the administration occ uses: ownCloud's sentence, word for word.
    const unknown = await site.t.services.oauth.clients.modify("No such name", "trusted", "true");
    assert.ok(!unknown.ok);
    assert.equal(unknown.message, "Client with name No such name does not exist.");
  });

  it("regenerating a client's secret shows the new one once, and the old secret stops working", async () => {
    const client = await webClient();
    assert.ok(await secretWorks(client.secret));
    const posted = await site.admin.post(`${CLIENTS}/${client.id}/regenerate-secret`, { requesttoken: await adminToken() });
    assert.equal(posted.statusCode, 303, "post/redirect/get");
    const page = await site.admin.get(String(posted.headers.location));
    const secret = /id="oauth2-client-secret-value">([A-Za-z0-9]{64})</.exec(page.body)?.[1];
    assert.ok(secret, "the new secret is shown");
    assert.equal((await webClient()).secret, secret);
    assert.equal(await secretWorks(client.secret), false, "the old secret is refused");
    assert.ok(await secretWorks(secret));
    assert.ok(!(await site.admin.get(ADMIN)).body.includes(secret), "shown once");
  });

  it("client edits, secret display and regeneration are refused without the CSRF token", async () => {
    const client = await webClient();
    const forged = await Promise.all([
      site.admin.post(`${CLIENTS}/${client.id}/edit`, { requesttoken: "forged", ...editForm(client, { name: "Forged" }) }),
      site.admin.post(`${CLIENTS}/${client.id}/secret`, { requesttoken: "forged" }),
      site.admin.post(`${CLIENTS}/${client.id}/regenerate-secret`, { requesttoken: "forged" }),
    ]);
    for (const response of forged) {
      assert.equal(response.statusCode, 403);
      assert.ok(!response.body.includes(client.secret));
    }
    const after = await webClient();
    assert.equal(after.name, client.name);
    assert.equal(after.secret, client.secret);
  });

  it("client edits, secret display and regeneration are for administrators: a user who is not one gets 403", async () => {
    const client = await webClient();
    const user = await loggedIn(site.t);
    const token = requestTokenOf((await user.get("/index.php/settings/personal")).body);
    const attempts = await Promise.all([
      user.post(`${CLIENTS}/${client.id}/edit`, { requesttoken: token, ...editForm(client, { name: "Taken" }) }),
      user.post(`${CLIENTS}/${client.id}/secret`, { requesttoken: token }),
      user.post(`${CLIENTS}/${client.id}/regenerate-secret`, { requesttoken: token }),
    ]);
    for (const response of attempts) {
      assert.equal(response.statusCode, 403);
      assert.ok(!response.body.includes(client.secret));
    }
    const after = await webClient();
    assert.equal(after.name, client.name);
    assert.equal(after.secret, client.secret);
  });
});
