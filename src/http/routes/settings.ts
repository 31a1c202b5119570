import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import type { Translator } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";
import { userTranslator } from "../i18n.js";
import { headerUser, layout, sendPage } from "../pages/layout.js";
import { confirmPasswordField } from "../pages/password-confirmation.js";
import { translatedHtml } from "../pages/translated-html.js";
import { passwordConfirmationNeeded } from "../password-confirmation.js";
import { ADMIN_PAGE, CONFIRMED_SESSION_FORM, guarded, SESSION_FORM, SESSION_PAGE } from "../plugins/route-guards.js";
import { COPY_SCRIPT_PATH, copyButton, copyScriptRoute } from "../settings-copy-script.js";
import { redirectWithFlash, takeFlash } from "../settings-flash.js";
import {
  type FormValues,
  SETTINGS_PAGES,
  type SettingsContext,
  type SettingsPageName,
  type SettingsSection,
} from "../settings-sections.js";

declare module "fastify" {
  interface FastifyInstance {
    settingsSections: SettingsSection[];
  }
}

const ADMIN_HOME = "/index.php/settings/admin";
const ADMIN_AREAS = ["users", "groups", "applications", "security", "settings"] as const satisfies readonly SettingsPageName[];

/** A stored time for a table cell, in the reader's language and time zone, with the zone named. */
export function formatDate(translator: Translator, epochSeconds: number | null): string {
  return epochSeconds === null ? translator.t("pages:settings.never") : translator.dates.dateTime(epochSeconds);
}

/** The text of a form field, when the field is there and is text. */
export function formField(request: FastifyRequest, name: string): string | undefined {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * Renders a settings page from its registered sections. `flash` goes to one section, so a form
 * handler can show a one-time secret where the user made it.
 */
export async function sendSettingsPage(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  page: SettingsPageName,
  flash?: { sectionId: string; message: SafeHtml; formValues?: FormValues },
  status = 200,
): Promise<FastifyReply> {
  const csrfToken = principal.session?.csrfToken ?? "";
  const translator = userTranslator(request, principal);
  // A one-time message from a post/redirect/get (settings-flash.ts), or one a handler passes.
  const shown = flash ?? (request.method === "GET" ? takeFlash(request, reply, principal) : undefined);
  const sections = request.server.settingsSections.filter((s) => s.page === page).sort((a, b) => a.order - b.order);
  const rendered = await Promise.all(
    sections.map((section) => {
      const context: SettingsContext = {
        request,
        principal,
        csrfToken,
        translator,
        t: translator.t,
        flash: shown?.sectionId === section.id ? shown.message : undefined,
        formValues: flash?.sectionId === section.id ? flash.formValues : undefined,
      };
      return section.render(context).then((body) => html`<section id="${section.id}">${body}</section>`);
    }),
  );
  const heading = translator.t(SETTINGS_PAGES[page].title);
  const admin = page !== "personal";
  const title = admin ? `${heading} – ${translator.t("pages:settings.admin.title")}` : heading;
  return sendPage(
    reply,
    layout({
      translator,
      title,
      user: headerUser(principal),
      current: admin ? "admin" : "personal",
      body: html`${admin ? adminNavigation(request, translator, page) : ""}<h1>${heading}</h1>${rendered}<script src="${COPY_SCRIPT_PATH}"></script>`,
    }),
    status,
  );
}

/**
 * A page of the administration console that is not an area's list of sections (one user's page):
 * the area navigation with `area` current, then `heading` and `body`.
 */
export function sendAdminPage(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  area: SettingsPageName,
  content: { heading: string; body: SafeHtml },
  status = 200,
): FastifyReply {
  const translator = userTranslator(request, principal);
  return sendPage(
    reply,
    layout({
      translator,
      title: `${content.heading} – ${translator.t("pages:settings.admin.title")}`,
      user: headerUser(principal),
      current: "admin",
      body: html`${adminNavigation(request, translator, area)}<h1>${content.heading}</h1>${content.body}<script src="${COPY_SCRIPT_PATH}"></script>`,
    }),
    status,
  );
}

/** The console's areas that have something to show, the current one marked for assistive technology. */
function adminNavigation(request: FastifyRequest, translator: Translator, current: SettingsPageName): SafeHtml {
  const { t } = translator;
  const areas = ADMIN_AREAS.filter((area) => request.server.settingsSections.some((s) => s.page === area));
  return html`<nav class="admin-nav" aria-label="${t("pages:settings.admin.title")}"><ul>${areas.map(
    (area) =>
      html`<li><a href="${SETTINGS_PAGES[area].path}"${area === current ? html` aria-current="page"` : ""}>${t(SETTINGS_PAGES[area].title)}</a></li>`,
  )}</ul></nav>`;
}

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  copyScriptRoute(app);

  app.settingsSections.push({
    id: "app-passwords",
    page: "personal",
    order: 50,
    render: async ({ request, principal, csrfToken, flash, translator }) => {
      const { t } = translator;
      const appPasswords = await app.services.appPasswords.list(principal.user.uid);
      // Creating one needs a recent password confirmation (the group's guard); ask in the form itself.
      const confirm = await passwordConfirmationNeeded(request, principal);
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
${confirm ? confirmPasswordField(translator, "app-password") : ""}
<div class="actions"><button type="submit">${t("pages:appPasswords.create")}</button></div>
</form>`;
    },
  });

  await app.register(
    guarded(SESSION_PAGE, (pages) => {
      pages.get(SETTINGS_PAGES.personal.path, async (request, reply) =>
        sendSettingsPage(request, reply, request.principal, "personal"),
      );
    }),
  );

  await app.register(
    guarded(ADMIN_PAGE, (pages) => {
      pages.get(ADMIN_HOME, async (_request, reply) => reply.redirect(SETTINGS_PAGES.users.path, 303));
      for (const area of ADMIN_AREAS) {
        pages.get(SETTINGS_PAGES[area].path, async (request, reply) => sendSettingsPage(request, reply, request.principal, area));
      }
    }),
  );

  await app.register(
    guarded(CONFIRMED_SESSION_FORM, (forms) => {
      // A refused name is the user's to read (account-errors.ts); anything else (the database away) is not.
      const accountRefusal = { page: "personal", sectionId: "app-passwords" } as const;
      forms.post("/index.php/settings/personal/app-passwords", { config: { accountRefusal } }, async (request, reply) => {
        const { principal } = request;
        const translator = userTranslator(request, principal);
        const { secret, appPassword } = await app.services.appPasswords.create(
          principal.user.uid,
          formField(request, "name") ?? "",
        );
        app.services.log.info(
          { event: "app_password_created", uid: principal.user.uid, id: appPassword.id },
          "app password created",
        );
        const message = html`<div class="notice" id="new-app-password">${translatedHtml(translator, "pages:appPasswords.created.notice", { name: html`<strong>${appPassword.name}</strong>` })}
<p><code class="secret" id="new-app-password-secret">${secret}</code> ${copyButton("new-app-password-secret", translator.t)}</p><p>${translatedHtml(translator, "pages:appPasswords.useWith", { uid: html`<strong>${principal.user.uid}</strong>` })}</p></div>`;
        // Post/redirect/get: the new password travels to the next page view once (settings-flash.ts).
        return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.personal.path, {
          sectionId: "app-passwords",
          message,
        });
      });
    }),
  );

  await app.register(
    guarded(SESSION_FORM, (forms) => {
      forms.post("/index.php/settings/personal/app-passwords/:id/revoke", async (request, reply) => {
        const { principal } = request;
        const { t } = userTranslator(request, principal);
        const id = Number((request.params as { id: string }).id);
        const revoked = Number.isSafeInteger(id) && (await app.services.appPasswords.revoke(principal.user.uid, id));
        if (revoked) {
          app.services.log.info({ event: "app_password_revoked", uid: principal.user.uid, id }, "app password revoked");
        }
        const message = revoked
          ? html`<p class="notice">${t("pages:appPasswords.revoked")}</p>`
          : html`<p class="error">${t("pages:appPasswords.noSuch")}</p>`;
        return sendSettingsPage(
          request,
          reply,
          principal,
          "personal",
          { sectionId: "app-passwords", message },
          revoked ? 200 : 404,
        );
      });
    }),
  );
}
