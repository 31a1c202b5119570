import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { html } from "../html.js";
import { userTranslator } from "../i18n.js";
import { requireFormUser, sendAdminsOnly, sendSettingsPage } from "./settings.js";

const CLIENTS_PATH = "/index.php/apps/oauth2/clients";

function field(request: FastifyRequest, name: string): string | undefined {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

/** An administrator's form post with a valid CSRF token; otherwise the answer is sent. */
async function requireAdminFormUser(request: FastifyRequest, reply: FastifyReply): Promise<Principal | undefined> {
  const principal = await requireFormUser(request, reply);
  if (principal && !principal.user.isAdmin) {
    sendAdminsOnly(request, reply, principal);
    return undefined;
  }
  return principal;
}

function idParam(request: FastifyRequest): number {
  const text = (request.params as { id: string }).id;
  return /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
}

/** research A.8: the admin clients section (add, delete) and the personal authorized-clients section (revoke). */
export async function oauthSettingsRoutes(app: FastifyInstance): Promise<void> {
  const { oauth } = app.services;

  app.settingsSections.push(
    {
      id: "oauth2",
      page: "admin",
      order: 20,
      render: async ({ csrfToken, flash, translator: { t } }) => {
        const clients = await oauth.clients.list();
        const label = {
          name: t("pages:oauth.name"),
          redirect: t("pages:oauth.redirectUri"),
          postLogout: t("pages:oauth.postLogoutRedirectUri"),
          clientId: t("pages:oauth.clientId"),
          secret: t("pages:oauth.secret"),
          options: t("pages:oauth.options"),
          trusted: t("pages:oauth.trusted"),
        };
        // The three flags share one column: nine columns never fit a page, in German least of all.
        const options = (c: (typeof clients)[number]) =>
          [
            c.allowSubdomains ? t("pages:oauth.allowSubdomains") : undefined,
            c.trusted ? label.trusted : undefined,
            c.resourceServer ? t("pages:oauth.resourceServer") : undefined,
          ]
            .filter((flag) => flag !== undefined)
            .join(", ") || "–";
        return html`<h2>${t("pages:oauth.heading")}</h2>
<h3>${t("pages:oauth.clients")}</h3>
${flash ?? ""}
${
  clients.length === 0
    ? html`<p class="muted" id="oauth2-no-clients">${t("pages:oauth.noClients")}</p>`
    : html`<table class="responsive" id="oauth2-clients"><thead><tr><th scope="col">${label.name}</th><th scope="col">${label.redirect}</th><th scope="col">${label.clientId}</th><th scope="col">${label.secret}</th><th scope="col">${label.options}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${clients.map(
  (
    c,
  ) => html`<tr><td data-label="${label.name}">${c.name}</td><td data-label="${label.redirect}" class="wrap-anywhere">${c.redirectUri}${
    c.postLogoutRedirectUri ? html`<div class="muted">${label.postLogout}: ${c.postLogoutRedirectUri}</div>` : ""
  }</td><td data-label="${label.clientId}"><code>${c.clientId}</code></td><td data-label="${label.secret}"><details class="secret"><summary>${t("pages:oauth.showSecret")}</summary><code class="secret">${c.secret}</code></details></td>
<td data-label="${label.options}">${options(c)}</td><td class="actions-cell">
<form method="post" action="${CLIENTS_PATH}/${String(c.id)}/delete"><input type="hidden" name="requesttoken" value="${csrfToken}">
<button class="danger small" type="submit" aria-label="${t("pages:oauth.deleteNamed", { name: c.name })}">${t("pages:oauth.delete")}</button></form></td></tr>`,
)}</tbody></table>`
}
<h3>${t("pages:oauth.addClient")}</h3>
<form method="post" action="${CLIENTS_PATH}" id="oauth2-add-client">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="oauth2-name">${label.name}</label><input type="text" id="oauth2-name" name="name" maxlength="80" required>
<label for="oauth2-redirect">${label.redirect}</label><input type="text" id="oauth2-redirect" name="redirect_uri" required>
<label for="oauth2-post-logout-redirect">${t("pages:oauth.postLogoutRedirectUriLabel")}</label><input type="text" id="oauth2-post-logout-redirect" name="post_logout_redirect_uri">
<label class="check"><input type="checkbox" name="allow_subdomains" value="1"> ${t("pages:oauth.allowSubdomainsLabel")}</label>
<label class="check"><input type="checkbox" name="trusted" value="1"> ${label.trusted}</label>
<label class="check"><input type="checkbox" name="resource_server" value="1"> ${t("pages:oauth.resourceServerLabel")}</label>
<div class="actions"><button type="submit">${t("pages:oauth.add")}</button></div>
</form>`;
      },
    },
    {
      id: "oauth2",
      page: "personal",
      order: 60,
      render: async ({ principal, csrfToken, translator: { t } }) => {
        const clients = await oauth.authorizedClients(principal.user.uid);
        return html`<h2>${t("pages:authorizedApps.heading")}</h2>
${
  clients.length === 0
    ? html`<p class="muted" id="oauth2-no-authorized">${t("pages:authorizedApps.none")}</p>`
    : html`<table class="responsive" id="oauth2-authorized"><thead><tr><th scope="col">${t("pages:oauth.name")}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${clients.map(
  (
    c,
  ) => html`<tr><td data-label="${t("pages:oauth.name")}">${c.name}</td><td class="actions-cell"><form method="post" action="${CLIENTS_PATH}/${String(c.id)}/revoke">
<input type="hidden" name="requesttoken" value="${csrfToken}"><button class="danger small" type="submit" aria-label="${t("pages:authorizedApps.revokeNamed", { name: c.name })}">${t("pages:appPasswords.revoke")}</button></form></td></tr>`,
)}</tbody></table>`
}`;
      },
    },
  );

  // Checkbox semantics as ownCloud: the flag is set whenever the field is present.
  app.post(CLIENTS_PATH, async (request, reply) => {
    const principal = await requireAdminFormUser(request, reply);
    if (!principal) return;
    const result = await oauth.clients.addFromAdminPage({
      name: field(request, "name") ?? "",
      redirectUri: field(request, "redirect_uri") ?? "",
      allowSubdomains: field(request, "allow_subdomains") !== undefined,
      trusted: field(request, "trusted") !== undefined,
      resourceServer: field(request, "resource_server") !== undefined,
      postLogoutRedirectUri: field(request, "post_logout_redirect_uri") ?? "",
    });
    const { t } = userTranslator(request, principal);
    const message = result.ok
      ? html`<p class="notice" id="oauth2-client-added">${t("pages:oauth.added", { name: result.value.name })}</p>`
      : html`<p class="error" id="oauth2-client-error">${result.message}</p>`;
    return sendSettingsPage(request, reply, principal, "admin", { sectionId: "oauth2", message }, result.ok ? 200 : 400);
  });

  app.post(`${CLIENTS_PATH}/:id/delete`, async (request, reply) => {
    const principal = await requireAdminFormUser(request, reply);
    if (!principal) return;
    const result = await oauth.clients.removeById(idParam(request));
    const { t } = userTranslator(request, principal);
    const message = result.ok
      ? html`<p class="notice" id="oauth2-client-deleted">${t("pages:oauth.deleted", { name: result.value.name })}</p>`
      : html`<p class="error" id="oauth2-client-error">${result.message}</p>`;
    return sendSettingsPage(request, reply, principal, "admin", { sectionId: "oauth2", message }, result.ok ? 200 : 404);
  });

  // research A.8: revoke, then back to the personal page's OAuth section.
  app.post(`${CLIENTS_PATH}/:id/revoke`, async (request, reply) => {
    const principal = await requireFormUser(request, reply);
    if (!principal) return;
    const id = idParam(request);
    if (Number.isSafeInteger(id)) await oauth.revoke(principal.user.uid, id);
    return reply.redirect("/index.php/settings/personal#oauth2", 303);
  });
}
