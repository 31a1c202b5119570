import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { AccountError } from "../../accounts/errors.js";
import type { Translator } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";
import { userTranslator } from "../i18n.js";
import { headerUser, layout, messagePage, sendPage } from "../pages/layout.js";
import { translatedHtml } from "../pages/translated-html.js";
import { csrfValid, requirePageUser } from "../plugins/authentication.js";
import type { SettingsContext, SettingsSection } from "../settings-sections.js";

declare module "fastify" {
  interface FastifyInstance {
    settingsSections: SettingsSection[];
  }
}

const PAGES = {
  personal: { path: "/index.php/settings/personal", title: "pages:settings.personal.title" },
  admin: { path: "/index.php/settings/admin", title: "pages:settings.admin.title" },
} as const;

/** A stored time for a table cell, in the reader's language, with the zone named (UTC until users have one). */
export function formatDate(translator: Translator, epochSeconds: number | null): string {
  return epochSeconds === null ? translator.t("pages:settings.never") : translator.dates.dateTime(epochSeconds);
}

/**
 * Renders a settings page from its registered sections. `flash` goes to one section, so a form
 * handler can show a one-time secret where the user made it.
 */
export async function sendSettingsPage(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  page: keyof typeof PAGES,
  flash?: { sectionId: string; message: SafeHtml },
  status = 200,
): Promise<FastifyReply> {
  const csrfToken = principal.session?.csrfToken ?? "";
  const translator = userTranslator(request, principal);
  const sections = request.server.settingsSections.filter((s) => s.page === page).sort((a, b) => a.order - b.order);
  const rendered = await Promise.all(
    sections.map((section) => {
      const context: SettingsContext = {
        request,
        principal,
        csrfToken,
        translator,
        flash: flash?.sectionId === section.id ? flash.message : undefined,
      };
      return section.render(context).then((body) => html`<section id="${section.id}">${body}</section>`);
    }),
  );
  const title = translator.t(PAGES[page].title);
  return sendPage(
    reply,
    layout({
      translator,
      title,
      user: headerUser(principal),
      current: page,
      body: html`<h1>${title}</h1>${rendered}`,
    }),
    status,
  );
}

/** A logged-in session whose form carries a valid CSRF token; otherwise the answer is sent. */
export async function requireFormUser(request: FastifyRequest, reply: FastifyReply): Promise<Principal | undefined> {
  const principal = await requirePageUser(request, reply);
  if (!principal) return undefined;
  if (!csrfValid(request, principal.session)) {
    const translator = userTranslator(request, principal);
    const { t } = translator;
    sendPage(reply, messagePage(translator, t("pages:message.requestNotValid"), t("pages:message.formExpired")), 403);
    return undefined;
  }
  return principal;
}

/** The "administrators only" refusal, for pages and forms alike. */
export function sendAdminsOnly(request: FastifyRequest, reply: FastifyReply, principal: Principal): FastifyReply {
  const translator = userTranslator(request, principal);
  const { t } = translator;
  return sendPage(
    reply,
    messagePage(translator, t("pages:message.forbidden"), t("pages:message.adminsOnly"), headerUser(principal)),
    403,
  );
}

/** Like requirePageUser, but for administrators only. */
export async function requireAdminPageUser(request: FastifyRequest, reply: FastifyReply): Promise<Principal | undefined> {
  const principal = await requirePageUser(request, reply);
  if (!principal) return undefined;
  if (!principal.user.isAdmin) {
    sendAdminsOnly(request, reply, principal);
    return undefined;
  }
  return principal;
}

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  app.settingsSections.push(
    {
      id: "profile",
      page: "personal",
      order: 0,
      render: async ({ principal, translator: { t } }) => html`<h2>${t("pages:profile.heading")}</h2>
<dl class="facts"><dt>${t("pages:profile.username")}</dt><dd id="profile-uid">${principal.user.uid}</dd>
<dt>${t("pages:profile.fullName")}</dt><dd id="profile-display-name">${principal.user.displayName}</dd>
<dt>${t("pages:profile.email")}</dt><dd>${principal.user.email ?? ""}</dd></dl>`,
    },
    {
      id: "app-passwords",
      page: "personal",
      order: 50,
      render: async ({ principal, csrfToken, flash, translator }) => {
        const { t } = translator;
        const appPasswords = await app.services.appPasswords.list(principal.user.uid);
        return html`<h2>${t("pages:appPasswords.heading")}</h2>
<p class="muted">${t("pages:appPasswords.intro")}</p>
${flash ?? ""}
${
  appPasswords.length === 0
    ? html`<p class="muted" id="app-password-list">${t("pages:appPasswords.none")}</p>`
    : html`<table class="responsive" id="app-password-list"><thead><tr><th scope="col">${t("pages:appPasswords.name")}</th><th scope="col">${t("pages:appPasswords.created")}</th><th scope="col">${t("pages:appPasswords.lastUsed")}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${appPasswords.map(
  (
    p,
  ) => html`<tr><td data-label="${t("pages:appPasswords.name")}">${p.name}</td><td data-label="${t("pages:appPasswords.created")}">${formatDate(translator, p.createdAt)}</td><td data-label="${t("pages:appPasswords.lastUsed")}">${formatDate(translator, p.lastUsedAt)}</td><td class="actions-cell">
<form method="post" action="/index.php/settings/personal/app-passwords/${String(p.id)}/revoke">
<input type="hidden" name="requesttoken" value="${csrfToken}"><button class="danger small" type="submit" aria-label="${t("pages:appPasswords.revokeNamed", { name: p.name })}">${t("pages:appPasswords.revoke")}</button></form></td></tr>`,
)}
</tbody></table>`
}
<form method="post" action="/index.php/settings/personal/app-passwords" id="create-app-password">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="app-password-name">${t("pages:appPasswords.deviceName")}</label>
<input type="text" id="app-password-name" name="name" maxlength="255" required>
<div class="actions"><button type="submit">${t("pages:appPasswords.create")}</button></div>
</form>`;
      },
    },
    {
      id: "users",
      page: "admin",
      order: 0,
      render: async ({ translator }) => {
        const { t } = translator;
        const users = await app.services.users.list();
        const label = {
          uid: t("pages:profile.username"),
          name: t("pages:profile.fullName"),
          email: t("pages:profile.email"),
          state: t("pages:users.state"),
          role: t("pages:users.role"),
        };
        return html`<h2>${t("pages:users.heading")}</h2>
<table class="responsive" id="users-list"><thead><tr><th scope="col">${label.uid}</th><th scope="col">${label.name}</th><th scope="col">${label.email}</th><th scope="col">${label.state}</th><th scope="col">${label.role}</th></tr></thead><tbody>
${users.map(
  (u) =>
    html`<tr><td data-label="${label.uid}">${u.uid}</td><td data-label="${label.name}">${u.displayName}</td><td data-label="${label.email}" class="wrap-anywhere">${u.email ?? ""}</td><td data-label="${label.state}">${u.enabled ? t("pages:users.enabled") : t("pages:users.disabled")}</td><td data-label="${label.role}">${u.isAdmin ? t("pages:users.admin") : t("pages:users.user")}</td></tr>`,
)}</tbody></table>
<p class="muted">${translatedHtml(translator, "pages:users.manageWithOcc", {
          commands: html`<code>./occ user:add</code>, <code>user:disable</code>, <code>user:delete</code>`,
        })}</p>`;
      },
    },
  );

  app.get(PAGES.personal.path, async (request, reply) => {
    const principal = await requirePageUser(request, reply);
    if (principal) return sendSettingsPage(request, reply, principal, "personal");
  });

  app.get(PAGES.admin.path, async (request, reply) => {
    const principal = await requireAdminPageUser(request, reply);
    if (principal) return sendSettingsPage(request, reply, principal, "admin");
  });

  app.post("/index.php/settings/personal/app-passwords", async (request, reply) => {
    const principal = await requireFormUser(request, reply);
    if (!principal) return;
    const translator = userTranslator(request, principal);
    const name = (request.body as Record<string, unknown> | undefined)?.name;
    try {
      const { secret, appPassword } = await app.services.appPasswords.create(
        principal.user.uid,
        typeof name === "string" ? name : "",
      );
      app.services.log.info(
        { event: "app_password_created", uid: principal.user.uid, id: appPassword.id },
        "app password created",
      );
      const message = html`<div class="notice" id="new-app-password">${translatedHtml(translator, "pages:appPasswords.created.notice", { name: html`<strong>${appPassword.name}</strong>` })}
<p><code class="secret">${secret}</code></p><p>${translatedHtml(translator, "pages:appPasswords.useWith", { uid: html`<strong>${principal.user.uid}</strong>` })}</p></div>`;
      return sendSettingsPage(request, reply, principal, "personal", { sectionId: "app-passwords", message });
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
    const { t } = userTranslator(request, principal);
    const id = Number((request.params as { id: string }).id);
    const revoked = Number.isSafeInteger(id) && (await app.services.appPasswords.revoke(principal.user.uid, id));
    if (revoked) {
      app.services.log.info({ event: "app_password_revoked", uid: principal.user.uid, id }, "app password revoked");
    }
    const message = revoked
      ? html`<p class="notice">${t("pages:appPasswords.revoked")}</p>`
      : html`<p class="error">${t("pages:appPasswords.noSuch")}</p>`;
    return sendSettingsPage(request, reply, principal, "personal", { sectionId: "app-passwords", message }, revoked ? 200 : 404);
  });
}
