import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { html } from "../html.js";
import { messagePage, sendPage } from "../pages/layout.js";
import { requireFormUser, sendSettingsPage } from "./settings.js";

const CLIENTS_PATH = "/index.php/apps/oauth2/clients";

function field(request: FastifyRequest, name: string): string | undefined {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

/** An administrator's form post with a valid CSRF token; otherwise the answer is sent. */
async function requireAdminFormUser(request: FastifyRequest, reply: FastifyReply): Promise<Principal | undefined> {
  const principal = await requireFormUser(request, reply);
  if (principal && !principal.user.isAdmin) {
    sendPage(reply, messagePage("Access forbidden", "This page is for administrators."), 403);
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
      render: async ({ csrfToken, flash }) => {
        const clients = await oauth.clients.list();
        return html`<h2>OAuth 2.0</h2>
<h3>Registered clients</h3>
${flash ?? ""}
${
  clients.length === 0
    ? html`<p class="muted" id="oauth2-no-clients">No clients registered.</p>`
    : html`<table id="oauth2-clients"><tr><th>Name</th><th>Redirection URI</th><th>Post-logout redirection URI</th><th>Client Identifier</th><th>Secret</th><th>Subdomains allowed</th><th>Trusted client</th><th>Resource server</th><th></th></tr>
${clients.map(
  (
    c,
  ) => html`<tr><td>${c.name}</td><td>${c.redirectUri}</td><td>${c.postLogoutRedirectUri ?? ""}</td><td><code>${c.clientId}</code></td><td><code class="secret">${c.secret}</code></td>
<td>${c.allowSubdomains ? "✓" : ""}</td><td>${c.trusted ? "✓" : ""}</td><td>${c.resourceServer ? "✓" : ""}</td><td>
<form method="post" action="${CLIENTS_PATH}/${String(c.id)}/delete"><input type="hidden" name="requesttoken" value="${csrfToken}">
<button class="danger" type="submit">Delete</button></form></td></tr>`,
)}</table>`
}
<h3>Add client</h3>
<form method="post" action="${CLIENTS_PATH}" id="oauth2-add-client">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="oauth2-name">Name</label><input type="text" id="oauth2-name" name="name" maxlength="80" required>
<label for="oauth2-redirect">Redirection URI</label><input type="text" id="oauth2-redirect" name="redirect_uri" required>
<label for="oauth2-post-logout-redirect">Post-logout redirection URI (OpenID Connect, optional)</label><input type="text" id="oauth2-post-logout-redirect" name="post_logout_redirect_uri">
<label><input type="checkbox" name="allow_subdomains" value="1"> Allow subdomains</label>
<label><input type="checkbox" name="trusted" value="1"> Trusted client</label>
<label><input type="checkbox" name="resource_server" value="1"> Resource server (may introspect every client's tokens)</label>
<p><button type="submit">Add</button></p>
</form>`;
      },
    },
    {
      id: "oauth2",
      page: "personal",
      order: 60,
      render: async ({ principal, csrfToken }) => {
        const clients = await oauth.authorizedClients(principal.user.uid);
        return html`<h2>Authorized Applications</h2>
${
  clients.length === 0
    ? html`<p class="muted" id="oauth2-no-authorized">No applications authorized.</p>`
    : html`<table id="oauth2-authorized"><tr><th>Name</th><th></th></tr>
${clients.map(
  (c) => html`<tr><td>${c.name}</td><td><form method="post" action="${CLIENTS_PATH}/${String(c.id)}/revoke">
<input type="hidden" name="requesttoken" value="${csrfToken}"><button class="danger" type="submit">Revoke</button></form></td></tr>`,
)}</table>`
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
    const message = result.ok
      ? html`<p class="notice" id="oauth2-client-added">The client “${result.value.name}” has been added.</p>`
      : html`<p class="error" id="oauth2-client-error">${result.message}</p>`;
    return sendSettingsPage(request, reply, principal, "admin", { sectionId: "oauth2", message }, result.ok ? 200 : 400);
  });

  app.post(`${CLIENTS_PATH}/:id/delete`, async (request, reply) => {
    const principal = await requireAdminFormUser(request, reply);
    if (!principal) return;
    const result = await oauth.clients.removeById(idParam(request));
    const message = result.ok
      ? html`<p class="notice" id="oauth2-client-deleted">The client “${result.value.name}” has been deleted.</p>`
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
