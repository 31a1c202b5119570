import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { AccountError } from "../../accounts/errors.js";
import { html, type SafeHtml } from "../html.js";
import { layout, messagePage, sendPage } from "../pages/layout.js";
import { csrfValid, requirePageUser } from "../plugins/authentication.js";
import type { SettingsContext, SettingsSection } from "../settings-sections.js";

declare module "fastify" {
  interface FastifyInstance {
    settingsSections: SettingsSection[];
  }
}

const PAGES = {
  personal: { path: "/index.php/settings/personal", title: "Personal settings" },
  admin: { path: "/index.php/settings/admin", title: "Administration settings" },
} as const;

function date(epochSeconds: number | null): string {
  return epochSeconds === null ? "never" : new Date(epochSeconds * 1000).toISOString().replace("T", " ").slice(0, 16);
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
  const sections = request.server.settingsSections.filter((s) => s.page === page).sort((a, b) => a.order - b.order);
  const rendered = await Promise.all(
    sections.map((section) => {
      const context: SettingsContext = {
        request,
        principal,
        csrfToken,
        flash: flash?.sectionId === section.id ? flash.message : undefined,
      };
      return section.render(context).then((body) => html`<section id="${section.id}">${body}</section>`);
    }),
  );
  const nav = principal.user.isAdmin
    ? html`<p class="muted"><a href="${PAGES.personal.path}">Personal</a> · <a href="${PAGES.admin.path}">Administration</a></p>`
    : "";
  return sendPage(
    reply,
    layout({
      title: PAGES[page].title,
      user: { displayName: principal.user.displayName, csrfToken },
      body: html`<h1>${PAGES[page].title}</h1>${nav}${rendered}`,
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

/** Like requirePageUser, but for administrators only. */
export async function requireAdminPageUser(request: FastifyRequest, reply: FastifyReply): Promise<Principal | undefined> {
  const principal = await requirePageUser(request, reply);
  if (!principal) return undefined;
  if (!principal.user.isAdmin) {
    sendPage(reply, messagePage("Access forbidden", "This page is for administrators."), 403);
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
      render: async ({ principal }) => html`<h2>Profile</h2>
<table><tr><th>Username</th><td id="profile-uid">${principal.user.uid}</td></tr>
<tr><th>Full name</th><td id="profile-display-name">${principal.user.displayName}</td></tr>
<tr><th>Email</th><td>${principal.user.email ?? ""}</td></tr></table>`,
    },
    {
      id: "app-passwords",
      page: "personal",
      order: 50,
      render: async ({ principal, csrfToken, flash }) => {
        const appPasswords = await app.services.appPasswords.list(principal.user.uid);
        return html`<h2>App passwords</h2>
<p class="muted">An app password lets a device or program sign in with HTTP Basic without your password. Revoke it to cut that device off.</p>
${flash ?? ""}
<table id="app-password-list"><tr><th>Name</th><th>Created</th><th>Last used</th><th></th></tr>
${appPasswords.map(
  (p) => html`<tr><td>${p.name}</td><td>${date(p.createdAt)}</td><td>${date(p.lastUsedAt)}</td><td>
<form method="post" action="/index.php/settings/personal/app-passwords/${String(p.id)}/revoke">
<input type="hidden" name="requesttoken" value="${csrfToken}"><button class="danger" type="submit">Revoke</button></form></td></tr>`,
)}
</table>
<form method="post" action="/index.php/settings/personal/app-passwords" id="create-app-password">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="app-password-name">Device or program name</label>
<input type="text" id="app-password-name" name="name" maxlength="255" required>
<p><button type="submit">Create app password</button></p>
</form>`;
      },
    },
    {
      id: "users",
      page: "admin",
      order: 0,
      render: async () => {
        const users = await app.services.users.list();
        return html`<h2>Users</h2>
<p class="muted">Manage users with <code>./occ user:add</code>, <code>user:disable</code>, <code>user:delete</code>.</p>
<table><tr><th>Username</th><th>Full name</th><th>Email</th><th>State</th><th>Role</th></tr>
${users.map(
  (u) =>
    html`<tr><td>${u.uid}</td><td>${u.displayName}</td><td>${u.email ?? ""}</td><td>${u.enabled ? "enabled" : "disabled"}</td><td>${u.isAdmin ? "admin" : ""}</td></tr>`,
)}</table>`;
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
      const message = html`<div class="notice" id="new-app-password">New app password for <strong>${appPassword.name}</strong>, shown only now:
<p><code class="secret">${secret}</code></p><p class="muted">Use it with your username <strong>${principal.user.uid}</strong>.</p></div>`;
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
    const id = Number((request.params as { id: string }).id);
    const revoked = Number.isSafeInteger(id) && (await app.services.appPasswords.revoke(principal.user.uid, id));
    if (revoked) {
      app.services.log.info({ event: "app_password_revoked", uid: principal.user.uid, id }, "app password revoked");
    }
    const message = revoked
      ? html`<p class="notice">The app password was revoked.</p>`
      : html`<p class="error">No such app password.</p>`;
    return sendSettingsPage(request, reply, principal, "personal", { sectionId: "app-passwords", message }, revoked ? 200 : 404);
  });
}
