import type { FastifyInstance, FastifyRequest } from "fastify";
import { say } from "../../i18n/index.js";
import type { OAuthClient } from "../../oauth/ports.js";
import { html, type SafeHtml } from "../html.js";
import { userTranslator } from "../i18n.js";
import { ADMIN_FORM, guarded, SESSION_FORM } from "../plugins/route-guards.js";
import { copyButton } from "../settings-copy-script.js";
import { redirectWithFlash } from "../settings-flash.js";
import type { SettingsContext } from "../settings-sections.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { formatDate, sendSettingsPage } from "./settings.js";

const CLIENTS_PATH = "/index.php/apps/oauth2/clients";

function field(request: FastifyRequest, name: string): string | undefined {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

/** A one-time secret with its copy button (shown after "show" or "regenerate", never on every render). */
function secretNotice(id: string, text: string, secret: string, t: SettingsContext["t"]): SafeHtml {
  return html`<div class="notice" id="${id}">${text}
<p><code class="secret" id="${id}-value">${secret}</code> ${copyButton(`${id}-value`, t)}</p></div>`;
}

/** Every field `oauth2:modify-client` knows but the secret (regenerated on its own), prefilled. */
function clientEditForm(c: OAuthClient, allowedGroups: readonly string[], csrfToken: string, t: SettingsContext["t"]): SafeHtml {
  const id = `oauth2-edit-${String(c.id)}`;
  const checkbox = (name: string, checked: boolean, label: string) =>
    html`<label><input type="checkbox" name="${name}" value="1"${checked ? html` checked` : ""}> ${label}</label>`;
  return html`<details><summary>${t("settings:clients.edit")}</summary>
<form method="post" action="${CLIENTS_PATH}/${String(c.id)}/edit" id="${id}">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="${id}-name">${t("settings:clients.name")}</label><input type="text" id="${id}-name" name="name" maxlength="80" required value="${c.name}">
<label for="${id}-client-id">${t("settings:clients.clientId")}</label><input type="text" id="${id}-client-id" name="client_id" required value="${c.clientId}">
<label for="${id}-redirect">${t("settings:clients.redirect")}</label><input type="text" id="${id}-redirect" name="redirect_uri" required value="${c.redirectUri}">
<label for="${id}-post-logout">${t("settings:clients.postLogoutRedirect")}</label><input type="text" id="${id}-post-logout" name="post_logout_redirect_uri" value="${c.postLogoutRedirectUri ?? ""}">
<label for="${id}-backchannel-logout">${t("settings:clients.backchannelLogout")}</label><input type="url" id="${id}-backchannel-logout" name="backchannel_logout_uri" value="${c.backchannelLogoutUri ?? ""}">
${checkbox("allow_subdomains", c.allowSubdomains, t("settings:clients.allowSubdomains"))}
${checkbox("trusted", c.trusted, t("settings:clients.trusted"))}
<label for="${id}-trusted-scopes">${t("settings:clients.trustedScopes")}</label><input type="text" id="${id}-trusted-scopes" name="trusted_scopes" value="${c.trustedScopes ?? ""}">
${checkbox("resource_server", c.resourceServer, t("settings:clients.resourceServer"))}
${checkbox("account_access", c.accountAccess === true, t("pages:oauth.accountAccessLabel"))}
<label for="${id}-allowed-groups">${t("groups:allowedGroups")}</label><input type="text" id="${id}-allowed-groups" name="allowed_groups" value="${allowedGroups.join(", ")}">
${checkbox("force_trust", false, t("settings:clients.forceTrust"))}
<p><button type="submit">${t("settings:clients.save")}</button></p>
</form></details>`;
}

function idParam(request: FastifyRequest): number {
  const text = (request.params as { id: string }).id;
  return /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
}

/**
 * The admin clients section (add, edit, delete, show or regenerate a secret) and the personal
 * authorized-clients section (revoke), as ownCloud's settings pages have them
 * (docs/upstream/owncloud-oauth2.md A.8).
 */
export async function oauthSettingsRoutes(app: FastifyInstance): Promise<void> {
  const { oauth } = app.services;

  app.settingsSections.push(
    {
      id: "oauth2",
      page: "applications",
      order: 20,
      render: async ({ csrfToken, flash, formValues = {}, t }) => {
        const clients = await oauth.clients.list();
        const allowedGroups = await oauth.clients.allowedGroups(clients);
        // After a refusal the add form shows what was sent, to correct rather than type again.
        const ticked = (name: string) => (formValues[name] !== undefined ? html` checked` : "");
        const label = {
          name: t("pages:oauth.name"),
          redirect: t("pages:oauth.redirectUri"),
          postLogout: t("pages:oauth.postLogoutRedirectUri"),
          backchannelLogout: t("settings:clients.backchannelLogout"),
          clientId: t("pages:oauth.clientId"),
          secret: t("pages:oauth.secret"),
          options: t("pages:oauth.options"),
          trusted: t("pages:oauth.trusted"),
        };
        // The flags share one column: nine columns never fit a page, in German least of all.
        const options = (c: (typeof clients)[number]) =>
          [
            c.allowSubdomains ? t("pages:oauth.allowSubdomains") : undefined,
            c.trusted ? (c.trustedScopes ? `${label.trusted} (${c.trustedScopes})` : label.trusted) : undefined,
            c.resourceServer ? t("pages:oauth.resourceServer") : undefined,
            c.accountAccess ? t("pages:oauth.accountAccess") : undefined,
            c.registeredAt === undefined ? undefined : t("pages:oauth.selfRegistered"),
            allowedGroups.has(c.id)
              ? `${t("groups:allowedGroupsShort")}: ${(allowedGroups.get(c.id) ?? []).join(", ")}`
              : undefined,
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
  }${c.backchannelLogoutUri ? html`<div class="muted">${label.backchannelLogout}: ${c.backchannelLogoutUri}</div>` : ""}</td><td data-label="${label.clientId}"><code>${c.clientId}</code></td><td data-label="${label.secret}"><span class="muted">${t("settings:clients.secretHidden")}</span>
<form method="post" action="${CLIENTS_PATH}/${String(c.id)}/secret"><input type="hidden" name="requesttoken" value="${csrfToken}"><button class="small" type="submit">${t("settings:clients.showSecret")}</button></form>
<form method="post" action="${CLIENTS_PATH}/${String(c.id)}/regenerate-secret"><input type="hidden" name="requesttoken" value="${csrfToken}"><button class="small" type="submit">${t("settings:clients.regenerate")}</button></form></td>
<td data-label="${label.options}">${options(c)}</td><td class="actions-cell">
<form method="post" action="${CLIENTS_PATH}/${String(c.id)}/delete"><input type="hidden" name="requesttoken" value="${csrfToken}">
<button class="danger small" type="submit" aria-label="${t("pages:oauth.deleteNamed", { name: c.name })}">${t("pages:oauth.delete")}</button></form>${clientEditForm(c, allowedGroups.get(c.id) ?? [], csrfToken, t)}</td></tr>`,
)}</tbody></table>`
}
<h3>${t("pages:oauth.addClient")}</h3>
<form method="post" action="${CLIENTS_PATH}" id="oauth2-add-client">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="oauth2-name">${label.name}</label><input type="text" id="oauth2-name" name="name" maxlength="80" required value="${formValues.name ?? ""}">
<label for="oauth2-redirect">${label.redirect}</label><input type="text" id="oauth2-redirect" name="redirect_uri" required value="${formValues.redirect_uri ?? ""}">
<label for="oauth2-post-logout-redirect">${t("pages:oauth.postLogoutRedirectUriLabel")}</label><input type="text" id="oauth2-post-logout-redirect" name="post_logout_redirect_uri" value="${formValues.post_logout_redirect_uri ?? ""}">
<label for="oauth2-backchannel-logout">${t("settings:clients.backchannelLogoutLabel")}</label><input type="url" id="oauth2-backchannel-logout" name="backchannel_logout_uri" value="${formValues.backchannel_logout_uri ?? ""}">
<label class="check"><input type="checkbox" name="allow_subdomains" value="1"${ticked("allow_subdomains")}> ${t("pages:oauth.allowSubdomainsLabel")}</label>
<label class="check"><input type="checkbox" name="trusted" value="1"${ticked("trusted")}> ${label.trusted}</label>
<label for="oauth2-trusted-scopes">${t("settings:clients.trustedScopes")}</label><input type="text" id="oauth2-trusted-scopes" name="trusted_scopes" value="${formValues.trusted_scopes ?? ""}">
<label class="check"><input type="checkbox" name="resource_server" value="1"${ticked("resource_server")}> ${t("pages:oauth.resourceServerLabel")}</label>
<label class="check"><input type="checkbox" name="account_access" value="1"${ticked("account_access")}> ${t("pages:oauth.accountAccessLabel")}</label>
<label for="oauth2-allowed-groups">${t("groups:allowedGroups")}</label><input type="text" id="oauth2-allowed-groups" name="allowed_groups" value="${formValues.allowed_groups ?? app.services.settings.get("oauth2.new_clients_allowed_groups").split(",").join(", ")}">
<div class="actions"><button type="submit">${t("pages:oauth.add")}</button></div>
</form>`;
      },
    },
    {
      id: "oauth2",
      page: "personal",
      order: 60,
      render: async ({ principal, csrfToken, translator }) => {
        const { t } = translator;
        const clients = await oauth.authorizedClients(principal.user.uid);
        const label = {
          name: t("pages:oauth.name"),
          granted: t("settings:authorizedApps.granted"),
          lastUsed: t("settings:authorizedApps.lastUsed"),
        };
        return html`<h2>${t("pages:authorizedApps.heading")}</h2>
${
  clients.length === 0
    ? html`<p class="muted" id="oauth2-no-authorized">${t("pages:authorizedApps.none")}</p>`
    : html`<table class="responsive" id="oauth2-authorized"><thead><tr><th scope="col">${label.name}</th><th scope="col">${label.granted}</th><th scope="col">${label.lastUsed}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${clients.map(
  (
    c,
  ) => html`<tr><td data-label="${label.name}">${c.name}</td><td data-label="${label.granted}">${formatDate(translator, c.grantedAt)}</td><td data-label="${label.lastUsed}">${formatDate(translator, c.lastUsedAt)}</td><td class="actions-cell"><form method="post" action="${CLIENTS_PATH}/${String(c.id)}/revoke">
<input type="hidden" name="requesttoken" value="${csrfToken}"><button class="danger small" type="submit" aria-label="${t("pages:authorizedApps.revokeNamed", { name: c.name })}">${t("pages:appPasswords.revoke")}</button></form></td></tr>`,
)}</tbody></table>`
}`;
      },
    },
  );

  await app.register(
    guarded(ADMIN_FORM, (forms) => {
      // Checkbox semantics as ownCloud: the flag is set whenever the field is present.
      forms.post(CLIENTS_PATH, async (request, reply) => {
        const { principal } = request;
        const sent = {
          name: field(request, "name"),
          redirect_uri: field(request, "redirect_uri"),
          post_logout_redirect_uri: field(request, "post_logout_redirect_uri"),
          backchannel_logout_uri: field(request, "backchannel_logout_uri"),
          allow_subdomains: field(request, "allow_subdomains"),
          trusted: field(request, "trusted"),
          trusted_scopes: field(request, "trusted_scopes"),
          resource_server: field(request, "resource_server"),
          account_access: field(request, "account_access"),
          allowed_groups: field(request, "allowed_groups"),
        };
        const result = await oauth.clients.addFromAdminPage({
          name: sent.name ?? "",
          redirectUri: sent.redirect_uri ?? "",
          allowSubdomains: sent.allow_subdomains !== undefined,
          trusted: sent.trusted !== undefined,
          resourceServer: sent.resource_server !== undefined,
          accountAccess: sent.account_access !== undefined,
          postLogoutRedirectUri: sent.post_logout_redirect_uri ?? "",
          trustedScopes: sent.trusted_scopes ?? "",
          backchannelLogoutUri: sent.backchannel_logout_uri ?? "",
          allowedGroups: sent.allowed_groups,
        });
        const translator = userTranslator(request, principal);
        const { t } = translator;
        const message = result.ok
          ? html`<p class="notice" id="oauth2-client-added">${t("pages:oauth.added", { name: result.value.name })}</p>`
          : html`<p class="error" id="oauth2-client-error">${say(translator, result.phrase)}</p>`;
        const formValues = result.ok ? undefined : sent;
        return sendSettingsPage(
          request,
          reply,
          principal,
          "applications",
          { sectionId: "oauth2", message, formValues },
          result.ok ? 200 : 400,
        );
      });

      forms.post(`${CLIENTS_PATH}/:id/delete`, async (request, reply) => {
        const { principal } = request;
        const result = await oauth.clients.removeById(idParam(request));
        const translator = userTranslator(request, principal);
        const { t } = translator;
        const message = result.ok
          ? html`<p class="notice" id="oauth2-client-deleted">${t("pages:oauth.deleted", { name: result.value.name })}</p>`
          : html`<p class="error" id="oauth2-client-error">${say(translator, result.phrase)}</p>`;
        return sendSettingsPage(
          request,
          reply,
          principal,
          "applications",
          { sectionId: "oauth2", message },
          result.ok ? 200 : 404,
        );
      });

      // The edit form: checkbox semantics as the add form (present = true), through modify's checks.
      forms.post(`${CLIENTS_PATH}/:id/edit`, async (request, reply) => {
        const { principal } = request;
        const translator = userTranslator(request, principal);
        const { t } = translator;
        const flag = (name: string) => String(field(request, name) !== undefined);
        const result = await oauth.clients.modifyById(
          idParam(request),
          {
            name: (field(request, "name") ?? "").trim(),
            "client-id": (field(request, "client_id") ?? "").trim(),
            "redirect-url": (field(request, "redirect_uri") ?? "").trim(),
            "post-logout-redirect-url": (field(request, "post_logout_redirect_uri") ?? "").trim(),
            "backchannel-logout-url": (field(request, "backchannel_logout_uri") ?? "").trim(),
            "allow-sub-domains": flag("allow_subdomains"),
            trusted: flag("trusted"),
            "trusted-scopes": (field(request, "trusted_scopes") ?? "").trim(),
            "resource-server": flag("resource_server"),
            "account-access": flag("account_access"),
            // Absent from the form: left as it is (an empty field means everyone).
            ...(field(request, "allowed_groups") === undefined ? {} : { "allowed-groups": field(request, "allowed_groups") }),
          },
          field(request, "force_trust") !== undefined,
        );
        const message = result.ok
          ? html`<p class="notice" id="oauth2-client-saved">${t("settings:clients.saved", { name: result.value.name })}</p>`
          : html`<p class="error" id="oauth2-client-error">${say(translator, result.phrase)}</p>`;
        return sendSettingsPage(
          request,
          reply,
          principal,
          "applications",
          { sectionId: "oauth2", message },
          result.ok ? 200 : 400,
        );
      });

      // Secrets are not on the page until asked for, one client at a time (shoulder-surfing, screenshots).
      forms.post(`${CLIENTS_PATH}/:id/secret`, async (request, reply) => {
        const { principal } = request;
        const { t } = userTranslator(request, principal);
        const client = await oauth.clients.findById(idParam(request));
        const message = client
          ? secretNotice("oauth2-client-secret", t("settings:clients.secretOf", { name: client.name }), client.secret, t)
          : html`<p class="error" id="oauth2-client-error">${t("clientErrors:noSuchClient")}</p>`;
        return sendSettingsPage(request, reply, principal, "applications", { sectionId: "oauth2", message }, client ? 200 : 404);
      });

      // Post/redirect/get, as for app passwords: a reload does not regenerate it again.
      forms.post(`${CLIENTS_PATH}/:id/regenerate-secret`, async (request, reply) => {
        const { principal } = request;
        const translator = userTranslator(request, principal);
        const { t } = translator;
        const result = await oauth.clients.regenerateSecret(idParam(request));
        if (!result.ok) {
          const message = html`<p class="error" id="oauth2-client-error">${say(translator, result.phrase)}</p>`;
          return sendSettingsPage(request, reply, principal, "applications", { sectionId: "oauth2", message }, 404);
        }
        const text = t("settings:clients.regenerated", { name: result.value.name });
        const message = secretNotice("oauth2-client-secret", text, result.value.secret, t);
        return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.applications.path, { sectionId: "oauth2", message });
      });
    }),
  );

  await app.register(
    guarded(SESSION_FORM, (forms) => {
      // Revoke, then back to the personal page's OAuth section.
      forms.post(`${CLIENTS_PATH}/:id/revoke`, async (request, reply) => {
        const { principal } = request;
        const id = idParam(request);
        if (Number.isSafeInteger(id)) await oauth.revoke(principal.user.uid, id);
        return reply.redirect("/index.php/settings/personal#oauth2", 303);
      });
    }),
  );
}
