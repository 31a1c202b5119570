import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { say } from "../../../i18n/index.js";
import { userTranslator } from "../../i18n.js";
import { ADMIN_FORM, guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { answerInSection, formField as field, sendSettingsPage } from "../page.js";
import { redirectWithFlash } from "../settings-flash.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { authorizedAppsSection, CLIENTS_PATH, clientSecretNotice, clientsSection } from "../views/oauth-clients.js";

/** Where every answer of the clients forms shows: the applications area's clients section. */
const CLIENTS_SECTION = { page: "applications", sectionId: "oauth2" } as const;
const CLIENT_ERROR_ID = "oauth2-client-error";

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
  const { oauth, settings } = app.services;

  app.settingsSections.push(
    {
      id: "oauth2",
      page: "applications",
      order: 20,
      render: async ({ csrfToken, flash, formValues = {}, t }) => {
        const clients = await oauth.clients.list();
        const allowedGroups = await oauth.clients.allowedGroups(clients);
        const defaultAllowedGroups = settings.get("oauth2.new_clients_allowed_groups");
        return clientsSection(t, { clients, allowedGroups, defaultAllowedGroups, csrfToken, flash, formValues });
      },
    },
    {
      id: "oauth2",
      page: "personal",
      order: 60,
      render: async ({ principal, csrfToken, translator }) => {
        const clients = await oauth.authorizedClients(principal.user.uid);
        return authorizedAppsSection(translator, { clients, csrfToken });
      },
    },
  );

  await app.register(
    guarded(ADMIN_FORM, (forms) => {
      // Checkbox semantics as ownCloud: the flag is set whenever the field is present.
      forms.post(CLIENTS_PATH, addClient);
      forms.post(`${CLIENTS_PATH}/:id/delete`, deleteClient);
      // The edit form: checkbox semantics as the add form (present = true), through modify's checks.
      forms.post(`${CLIENTS_PATH}/:id/edit`, editClient);
      // Secrets are not on the page until asked for, one client at a time (shoulder-surfing, screenshots).
      forms.post(`${CLIENTS_PATH}/:id/secret`, showSecret);
      // Post/redirect/get, as for app passwords: a reload does not regenerate it again.
      forms.post(`${CLIENTS_PATH}/:id/regenerate-secret`, regenerateSecret);
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

async function addClient(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
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
  const result = await request.server.services.oauth.clients.addFromAdminPage({
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
  return answerInSection(request, reply, principal, {
    ...CLIENTS_SECTION,
    ...(result.ok
      ? { ok: true, text: translator.t("pages:oauth.added", { name: result.value.name }), id: "oauth2-client-added" }
      : { ok: false, text: say(translator, result.phrase), id: CLIENT_ERROR_ID, formValues: sent }),
  });
}

async function deleteClient(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal } = request;
  const result = await request.server.services.oauth.clients.removeById(idParam(request));
  const translator = userTranslator(request, principal);
  return answerInSection(request, reply, principal, {
    ...CLIENTS_SECTION,
    ...(result.ok
      ? { ok: true, text: translator.t("pages:oauth.deleted", { name: result.value.name }), id: "oauth2-client-deleted" }
      : { ok: false, text: say(translator, result.phrase), id: CLIENT_ERROR_ID, status: 404 }),
  });
}

async function editClient(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal } = request;
  const translator = userTranslator(request, principal);
  const flag = (name: string) => String(field(request, name) !== undefined);
  const result = await request.server.services.oauth.clients.modifyById(
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
  return answerInSection(request, reply, principal, {
    ...CLIENTS_SECTION,
    ...(result.ok
      ? { ok: true, text: translator.t("settings:clients.saved", { name: result.value.name }), id: "oauth2-client-saved" }
      : { ok: false, text: say(translator, result.phrase), id: CLIENT_ERROR_ID }),
  });
}

async function showSecret(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal } = request;
  const { t } = userTranslator(request, principal);
  const client = await request.server.services.oauth.clients.findById(idParam(request));
  if (!client) {
    return answerInSection(request, reply, principal, {
      ...CLIENTS_SECTION,
      ok: false,
      text: t("clientErrors:noSuchClient"),
      id: CLIENT_ERROR_ID,
      status: 404,
    });
  }
  const message = clientSecretNotice(t("settings:clients.secretOf", { name: client.name }), client.secret, t);
  return sendSettingsPage(request, reply, principal, CLIENTS_SECTION.page, { sectionId: CLIENTS_SECTION.sectionId, message });
}

async function regenerateSecret(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal } = request;
  const translator = userTranslator(request, principal);
  const { t } = translator;
  const result = await request.server.services.oauth.clients.regenerateSecret(idParam(request));
  if (!result.ok) {
    const text = say(translator, result.phrase);
    return answerInSection(request, reply, principal, { ...CLIENTS_SECTION, ok: false, text, id: CLIENT_ERROR_ID, status: 404 });
  }
  const text = t("settings:clients.regenerated", { name: result.value.name });
  const message = clientSecretNotice(text, result.value.secret, t);
  return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.applications.path, { sectionId: "oauth2", message });
}
