import type { Translator } from "../../../i18n/index.js";
import type { AuthorizedClient, OAuthClient } from "../../../oauth/ports.js";
import { html, type SafeHtml } from "../../html.js";
import type { FormValues } from "../settings-sections.js";
import { copyButton } from "./copy-button.js";
import { formatDate } from "./format.js";

/** Where the clients section's forms post: `/index.php/apps/oauth2/clients[/<id>/<action>]`. */
export const CLIENTS_PATH = "/index.php/apps/oauth2/clients";

type T = Translator["t"];

interface ClientsModel {
  clients: readonly OAuthClient[];
  /** Each client's allowed groups, by the client's internal id (absent: everyone). */
  allowedGroups: ReadonlyMap<number, readonly string[]>;
  /** The add form's allowed groups when nothing was sent yet (the host setting). */
  defaultAllowedGroups: string;
  csrfToken: string;
  flash: SafeHtml | undefined;
  /** After a refusal the add form shows what was sent, to correct rather than type again. */
  formValues: FormValues;
}

/** The admin clients section: the clients (show or regenerate a secret, delete, edit) and the add form. */
export function clientsSection(t: T, model: ClientsModel): SafeHtml {
  return html`<h2>${t("pages:oauth.heading")}</h2>
<h3>${t("pages:oauth.clients")}</h3>
${model.flash ?? ""}
${
  model.clients.length === 0
    ? html`<p class="muted" id="oauth2-no-clients">${t("pages:oauth.noClients")}</p>`
    : clientsTable(t, model)
}
<h3>${t("pages:oauth.addClient")}</h3>
${addClientForm(t, model.formValues, model.defaultAllowedGroups, model.csrfToken)}`;
}

function columnLabels(t: T) {
  return {
    name: t("pages:oauth.name"),
    redirect: t("pages:oauth.redirectUri"),
    postLogout: t("pages:oauth.postLogoutRedirectUri"),
    backchannelLogout: t("settings:clients.backchannelLogout"),
    clientId: t("pages:oauth.clientId"),
    secret: t("pages:oauth.secret"),
    options: t("pages:oauth.options"),
    trusted: t("pages:oauth.trusted"),
  };
}

function clientsTable(t: T, model: ClientsModel): SafeHtml {
  const label = columnLabels(t);
  return html`<table class="responsive" id="oauth2-clients"><thead><tr><th scope="col">${label.name}</th><th scope="col">${label.redirect}</th><th scope="col">${label.clientId}</th><th scope="col">${label.secret}</th><th scope="col">${label.options}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${model.clients.map((c) => clientRow(t, c, model.allowedGroups.get(c.id), model.csrfToken))}</tbody></table>`;
}

/** The flags share one column: nine columns never fit a page, in German least of all. */
function clientOptions(t: T, c: OAuthClient, allowedGroups: readonly string[] | undefined): string {
  const trusted = t("pages:oauth.trusted");
  return (
    [
      c.allowSubdomains ? t("pages:oauth.allowSubdomains") : undefined,
      c.trusted ? (c.trustedScopes ? `${trusted} (${c.trustedScopes})` : trusted) : undefined,
      c.resourceServer ? t("pages:oauth.resourceServer") : undefined,
      c.accountAccess ? t("pages:oauth.accountAccess") : undefined,
      c.registeredAt === undefined ? undefined : t("pages:oauth.selfRegistered"),
      allowedGroups !== undefined ? `${t("groups:allowedGroupsShort")}: ${allowedGroups.join(", ")}` : undefined,
    ]
      .filter((flag) => flag !== undefined)
      .join(", ") || "–"
  );
}

function clientRow(t: T, c: OAuthClient, allowedGroups: readonly string[] | undefined, csrfToken: string): SafeHtml {
  const label = columnLabels(t);
  return html`<tr><td data-label="${label.name}">${c.name}</td><td data-label="${label.redirect}" class="wrap-anywhere">${c.redirectUri}${
    c.postLogoutRedirectUri ? html`<div class="muted">${label.postLogout}: ${c.postLogoutRedirectUri}</div>` : ""
  }${c.backchannelLogoutUri ? html`<div class="muted">${label.backchannelLogout}: ${c.backchannelLogoutUri}</div>` : ""}</td><td data-label="${label.clientId}"><code>${c.clientId}</code></td><td data-label="${label.secret}"><span class="muted">${t("settings:clients.secretHidden")}</span>
<form method="post" action="${CLIENTS_PATH}/${String(c.id)}/secret"><input type="hidden" name="requesttoken" value="${csrfToken}"><button class="small" type="submit">${t("settings:clients.showSecret")}</button></form>
<form method="post" action="${CLIENTS_PATH}/${String(c.id)}/regenerate-secret"><input type="hidden" name="requesttoken" value="${csrfToken}"><button class="small" type="submit">${t("settings:clients.regenerate")}</button></form></td>
<td data-label="${label.options}">${clientOptions(t, c, allowedGroups)}</td><td class="actions-cell">
<form method="post" action="${CLIENTS_PATH}/${String(c.id)}/delete"><input type="hidden" name="requesttoken" value="${csrfToken}">
<button class="danger small" type="submit" aria-label="${t("pages:oauth.deleteNamed", { name: c.name })}">${t("pages:oauth.delete")}</button></form>${clientEditForm(c, allowedGroups ?? [], csrfToken, t)}</td></tr>`;
}

function addClientForm(t: T, formValues: FormValues, defaultAllowedGroups: string, csrfToken: string): SafeHtml {
  const ticked = (name: string) => (formValues[name] !== undefined ? html` checked` : "");
  return html`<form method="post" action="${CLIENTS_PATH}" id="oauth2-add-client">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="oauth2-name">${t("pages:oauth.name")}</label><input type="text" id="oauth2-name" name="name" maxlength="80" required value="${formValues.name ?? ""}">
<label for="oauth2-redirect">${t("pages:oauth.redirectUri")}</label><input type="text" id="oauth2-redirect" name="redirect_uri" required value="${formValues.redirect_uri ?? ""}">
<label for="oauth2-post-logout-redirect">${t("pages:oauth.postLogoutRedirectUriLabel")}</label><input type="text" id="oauth2-post-logout-redirect" name="post_logout_redirect_uri" value="${formValues.post_logout_redirect_uri ?? ""}">
<label for="oauth2-backchannel-logout">${t("settings:clients.backchannelLogoutLabel")}</label><input type="url" id="oauth2-backchannel-logout" name="backchannel_logout_uri" value="${formValues.backchannel_logout_uri ?? ""}">
<label class="check"><input type="checkbox" name="allow_subdomains" value="1"${ticked("allow_subdomains")}> ${t("pages:oauth.allowSubdomainsLabel")}</label>
<label class="check"><input type="checkbox" name="trusted" value="1"${ticked("trusted")}> ${t("pages:oauth.trusted")}</label>
<label for="oauth2-trusted-scopes">${t("settings:clients.trustedScopes")}</label><input type="text" id="oauth2-trusted-scopes" name="trusted_scopes" value="${formValues.trusted_scopes ?? ""}">
<label class="check"><input type="checkbox" name="resource_server" value="1"${ticked("resource_server")}> ${t("pages:oauth.resourceServerLabel")}</label>
<label class="check"><input type="checkbox" name="account_access" value="1"${ticked("account_access")}> ${t("pages:oauth.accountAccessLabel")}</label>
<label for="oauth2-allowed-groups">${t("groups:allowedGroups")}</label><input type="text" id="oauth2-allowed-groups" name="allowed_groups" value="${formValues.allowed_groups ?? defaultAllowedGroups.split(",").join(", ")}">
<div class="actions"><button type="submit">${t("pages:oauth.add")}</button></div>
</form>`;
}

/** Every field `oauth2:modify-client` knows but the secret (regenerated on its own), prefilled. */
function clientEditForm(c: OAuthClient, allowedGroups: readonly string[], csrfToken: string, t: T): SafeHtml {
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

/** A one-time secret with its copy button (shown after "show" or "regenerate", never on every render). */
export function clientSecretNotice(text: string, secret: string, t: T): SafeHtml {
  const id = "oauth2-client-secret";
  return html`<div class="notice" id="${id}">${text}
<p><code class="secret" id="${id}-value">${secret}</code> ${copyButton(`${id}-value`, t)}</p></div>`;
}

/** The personal page's authorized applications, each with its revoke button. */
export function authorizedAppsSection(
  translator: Translator,
  model: { clients: readonly AuthorizedClient[]; csrfToken: string },
): SafeHtml {
  const { t } = translator;
  const { clients, csrfToken } = model;
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
}
