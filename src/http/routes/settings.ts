import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { AccountError } from "../../accounts/errors.js";
import { html, type SafeHtml } from "../html.js";
import { requestTranslator } from "../i18n.js";
import { layout, messagePage, sendPage } from "../pages/layout.js";
import { csrfValid, requirePageUser } from "../plugins/authentication.js";
import { COPY_SCRIPT_PATH, copyButton, copyScriptRoute } from "../settings-copy-script.js";
import { redirectWithFlash, takeFlash } from "../settings-flash.js";
import type { SettingsContext, SettingsSection } from "../settings-sections.js";

declare module "fastify" {
  interface FastifyInstance {
    settingsSections: SettingsSection[];
  }
}

export const SETTINGS_PAGES = {
  personal: { path: "/index.php/settings/personal", title: "settings:page.personal" },
  admin: { path: "/index.php/settings/admin", title: "settings:page.admin" },
} as const;

/** A date for a settings table, in the reader's own time zone when they chose one. */
export function settingsDate(epochSeconds: number | null, context: Pick<SettingsContext, "principal" | "t">): string {
  if (epochSeconds === null) return context.t("settings:date.never");
  const zone = context.principal.user.timeZone ?? "UTC";
  // sv-SE formats as ISO (2026-11-24 13:05), the one form every language reads alike.
  return new Intl.DateTimeFormat("sv-SE", { timeZone: zone, dateStyle: "short", timeStyle: "short" }).format(
    new Date(epochSeconds * 1000),
  );
}

/** The text of a form field, when the field is there and is text. */
export function formField(request: FastifyRequest, name: string): string | undefined {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * Renders a settings page from its registered sections, in the reader's own language (their
 * setting, else Accept-Language). `flash` goes to one section, so a form handler can show its
 * outcome where the user acted; a GET shows the flash a post/redirect/get left (settings-flash.ts).
 */
export async function sendSettingsPage(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  page: keyof typeof SETTINGS_PAGES,
  flash?: { sectionId: string; message: SafeHtml },
  status = 200,
): Promise<FastifyReply> {
  const translator = requestTranslator(request, principal.user.language);
  const { t } = translator;
  const shown = flash ?? (request.method === "GET" ? takeFlash(request, reply, principal) : undefined);
  const csrfToken = principal.session?.csrfToken ?? "";
  const sections = request.server.settingsSections.filter((s) => s.page === page).sort((a, b) => a.order - b.order);
  const rendered = await Promise.all(
    sections.map((section) => {
      const context: SettingsContext = {
        request,
        principal,
        csrfToken,
        t,
        flash: shown?.sectionId === section.id ? shown.message : undefined,
      };
      return section.render(context).then((body) => html`<section id="${section.id}">${body}</section>`);
    }),
  );
  const nav = principal.user.isAdmin
    ? html`<p class="muted"><a href="${SETTINGS_PAGES.personal.path}">${t("settings:nav.personal")}</a> · <a href="${SETTINGS_PAGES.admin.path}">${t("settings:nav.admin")}</a></p>`
    : "";
  const title = t(SETTINGS_PAGES[page].title);
  return sendPage(
    reply,
    layout({
      title,
      translator,
      user: { displayName: principal.user.displayName, csrfToken },
      body: html`<h1>${title}</h1>${nav}${rendered}<script src="${COPY_SCRIPT_PATH}"></script>`,
    }),
    status,
  );
}

/** A logged-in session whose form carries a valid CSRF token; otherwise the answer is sent. */
export async function requireFormUser(request: FastifyRequest, reply: FastifyReply): Promise<Principal | undefined> {
  const principal = await requirePageUser(request, reply);
  if (!principal) return undefined;
  if (!csrfValid(request, principal.session)) {
    sendPage(
      reply,
      messagePage("Request not valid", "The form expired or was not sent from this site. Reload the page and try again."),
      403,
    );
    return undefined;
  }
  return principal;
}

function refuseNonAdmin(reply: FastifyReply): undefined {
  sendPage(reply, messagePage("Access forbidden", "This page is for administrators."), 403);
  return undefined;
}

/** Like requirePageUser, but for administrators only. */
export async function requireAdminPageUser(request: FastifyRequest, reply: FastifyReply): Promise<Principal | undefined> {
  const principal = await requirePageUser(request, reply);
  if (!principal) return undefined;
  return principal.user.isAdmin ? principal : refuseNonAdmin(reply);
}

/** An administrator's form post with a valid CSRF token; otherwise the answer (403) is sent. */
export async function requireAdminFormUser(request: FastifyRequest, reply: FastifyReply): Promise<Principal | undefined> {
  const principal = await requireFormUser(request, reply);
  if (!principal) return undefined;
  return principal.user.isAdmin ? principal : refuseNonAdmin(reply);
}

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  copyScriptRoute(app);

  app.settingsSections.push({
    id: "app-passwords",
    page: "personal",
    order: 50,
    render: async (context) => {
      const { principal, csrfToken, flash, t } = context;
      const appPasswords = await app.services.appPasswords.list(principal.user.uid);
      return html`<h2>${t("settings:appPasswords.title")}</h2>
<p class="muted">${t("settings:appPasswords.intro")}</p>
${flash ?? ""}
<table id="app-password-list"><tr><th>${t("settings:appPasswords.name")}</th><th>${t("settings:common.created")}</th><th>${t("settings:common.lastUsed")}</th><th></th></tr>
${appPasswords.map(
  (
    p,
  ) => html`<tr><td>${p.name}</td><td>${settingsDate(p.createdAt, context)}</td><td>${settingsDate(p.lastUsedAt, context)}</td><td>
<form method="post" action="/index.php/settings/personal/app-passwords/${String(p.id)}/revoke">
<input type="hidden" name="requesttoken" value="${csrfToken}"><button class="danger" type="submit">${t("settings:common.revoke")}</button></form></td></tr>`,
)}
</table>
<form method="post" action="/index.php/settings/personal/app-passwords" id="create-app-password">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="app-password-name">${t("settings:appPasswords.deviceName")}</label>
<input type="text" id="app-password-name" name="name" maxlength="255" required>
<p><button type="submit">${t("settings:appPasswords.create")}</button></p>
</form>`;
    },
  });

  app.get(SETTINGS_PAGES.personal.path, async (request, reply) => {
    const principal = await requirePageUser(request, reply);
    if (principal) return sendSettingsPage(request, reply, principal, "personal");
  });

  app.get(SETTINGS_PAGES.admin.path, async (request, reply) => {
    const principal = await requireAdminPageUser(request, reply);
    if (principal) return sendSettingsPage(request, reply, principal, "admin");
  });

  // Post/redirect/get: the new password travels to the next page view once (settings-flash.ts).
  app.post("/index.php/settings/personal/app-passwords", async (request, reply) => {
    const principal = await requireFormUser(request, reply);
    if (!principal) return;
    const { t } = requestTranslator(request, principal.user.language);
    try {
      const { secret, appPassword } = await app.services.appPasswords.create(
        principal.user.uid,
        formField(request, "name") ?? "",
      );
      app.services.log.info(
        { event: "app_password_created", uid: principal.user.uid, id: appPassword.id },
        "app password created",
      );
      const message = html`<div class="notice" id="new-app-password">${t("settings:appPasswords.created", { name: appPassword.name })}
<p><code class="secret" id="new-app-password-secret">${secret}</code> ${copyButton("new-app-password-secret", t)}</p>
<p class="muted">${t("settings:appPasswords.useWith", { uid: principal.user.uid })}</p></div>`;
      return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.personal.path, { sectionId: "app-passwords", message });
    } catch (error) {
      // Only a refused name is the user's to read; anything else (the database away) is not.
      if (!(error instanceof AccountError)) throw error;
      const message = html`<p class="error">${error.message}</p>`;
      return sendSettingsPage(request, reply, principal, "personal", { sectionId: "app-passwords", message }, 400);
    }
  });

  app.post("/index.php/settings/personal/app-passwords/:id/revoke", async (request, reply) => {
    const principal = await requireFormUser(request, reply);
    if (!principal) return;
    const { t } = requestTranslator(request, principal.user.language);
    const id = Number((request.params as { id: string }).id);
    const revoked = Number.isSafeInteger(id) && (await app.services.appPasswords.revoke(principal.user.uid, id));
    if (revoked) {
      app.services.log.info({ event: "app_password_revoked", uid: principal.user.uid, id }, "app password revoked");
    }
    const message = revoked
      ? html`<p class="notice">${t("settings:appPasswords.revoked")}</p>`
      : html`<p class="error">${t("settings:appPasswords.noSuch")}</p>`;
    return sendSettingsPage(request, reply, principal, "personal", { sectionId: "app-passwords", message }, revoked ? 200 : 404);
  });
}
