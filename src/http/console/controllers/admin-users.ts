import type { FastifyInstance, FastifyRequest } from "fastify";
import type { UserListing } from "../../../accounts/ports.js";
import type { Translator } from "../../../i18n/index.js";
import { html, type SafeHtml } from "../../html.js";
import { userTranslator } from "../../i18n.js";
import { ADMIN_FORM, ADMIN_PAGE, guarded } from "../../plugins/route-guards.js";
import { USERS_FORM_PATH, userPagePath } from "../admin-user-paths.js";
import { formField } from "../page.js";
import { redirectWithFlash } from "../settings-flash.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { formatDate } from "../views/format.js";
import { adminUserActionRoutes } from "./admin-user-actions.js";
import { factorNames, sendUserPage } from "./admin-user-page.js";

const SECTION_ID = "users";
/** Users per page of the users area. */
export const USERS_PER_PAGE = 50;
/** The longest search text taken from `?q=` (a uid, name or address is at most 255 characters). */
const MAX_SEARCH_LENGTH = 255;

/** The users area's query: `?q=` the search text, `?page=` from 1. */
function listQuery(request: FastifyRequest): { text: string; page: number } {
  const query = request.query as Record<string, unknown>;
  const text = typeof query.q === "string" ? query.q.trim().slice(0, MAX_SEARCH_LENGTH) : "";
  const page = typeof query.page === "string" && /^[1-9]\d{0,5}$/.test(query.page) ? Number(query.page) : 1;
  return { text, page };
}

function listUrl(text: string, page: number): string {
  const query = new URLSearchParams();
  if (text !== "") query.set("q", text);
  if (page > 1) query.set("page", String(page));
  const search = query.toString();
  return search === "" ? SETTINGS_PAGES.users.path : `${SETTINGS_PAGES.users.path}?${search}`;
}

function userRow(
  translator: Translator,
  user: UserListing,
  groups: readonly string[] | undefined,
  factors: readonly string[] | undefined,
): SafeHtml {
  const { t } = translator;
  const label = {
    uid: t("settings:profile.username"),
    name: t("settings:profile.fullName"),
    email: t("settings:profile.email"),
    state: t("settings:users.state"),
    groups: t("console:users.groups"),
    lastLogin: t("console:users.lastLogin"),
    factors: t("secondFactor:admin.column"),
  };
  // data-label: the column's name, shown beside each cell when the table becomes cards on a phone.
  return html`<tr><td data-label="${label.uid}" class="wrap-anywhere"><a href="${userPagePath(user.uid)}">${user.uid}</a></td><td data-label="${label.name}" class="wrap-anywhere">${user.displayName}</td><td data-label="${label.email}" class="email">${emailWithBreak(user.email)}</td><td data-label="${label.state}">${user.enabled ? t("settings:users.enabled") : t("settings:users.disabled")}</td><td data-label="${label.groups}" class="wrap-anywhere">${(groups ?? []).join(", ") || "–"}</td><td data-label="${label.lastLogin}">${formatDate(translator, user.lastLoginAt)}</td><td data-label="${label.factors}">${factorNames(t, factors)}</td></tr>`;
}

/** An address that may wrap before its `@` (not in the middle of a word), as a table cell shows it. */
function emailWithBreak(email: string | null): SafeHtml {
  if (email === null) return html``;
  const at = email.lastIndexOf("@");
  return at <= 0 ? html`${email}` : html`${email.slice(0, at)}<wbr>${email.slice(at)}`;
}

/** Previous and next page links, and where this page is. */
function pager(t: Translator["t"], text: string, page: number, pages: number): SafeHtml {
  if (pages <= 1) return html``;
  return html`<nav class="pager" aria-label="${t("console:users.pages")}"><ul>
<li>${page > 1 ? html`<a rel="prev" href="${listUrl(text, page - 1)}">${t("console:users.previous")}</a>` : ""}</li>
<li aria-current="page">${t("console:users.pageOf", { page, pages })}</li>
<li>${page < pages ? html`<a rel="next" href="${listUrl(text, page + 1)}">${t("console:users.next")}</a>` : ""}</li>
</ul></nav>`;
}

/**
 * The users area: a search over uid, name and address, one page of users at a time (each linking
 * to the user's own page, admin-user-page.ts), and the form that creates a user, through the same
 * UserDirectory calls `./occ user:*` makes.
 */
export async function adminUserRoutes(app: FastifyInstance): Promise<void> {
  const { users, groups, secondFactors, log } = app.services;

  app.settingsSections.push({
    id: SECTION_ID,
    page: "users",
    order: 0,
    render: async ({ request, csrfToken, flash, formValues = {}, translator, t }) => {
      const { text, page } = listQuery(request);
      const found = await users.search({ text, limit: USERS_PER_PAGE, offset: (page - 1) * USERS_PER_PAGE });
      const uids = found.users.map((u) => u.uid);
      const [memberships, factors] = await Promise.all([groups.groupsOfUsers(uids), secondFactors.enabledByUser(uids)]);
      const pages = Math.max(1, Math.ceil(found.total / USERS_PER_PAGE));
      const first = (page - 1) * USERS_PER_PAGE + 1;
      const summary =
        found.users.length === 0
          ? text === ""
            ? t("console:users.none")
            : t("console:users.noMatch", { text })
          : t("console:users.showing", { first, last: first + found.users.length - 1, total: found.total });
      // The area's heading (h1) says "Users"; the list needs no heading of its own.
      return html`${flash ?? ""}
<form method="get" action="${SETTINGS_PAGES.users.path}" role="search" class="search" id="user-search-form">
<label for="user-search">${t("console:users.search")}</label>
<div class="search-row"><input type="search" id="user-search" name="q" maxlength="${MAX_SEARCH_LENGTH}" value="${text}" aria-describedby="user-search-hint">
<button type="submit">${t("console:users.searchButton")}</button>${text === "" ? "" : html` <a class="button secondary" href="${SETTINGS_PAGES.users.path}">${t("console:users.clear")}</a>`}</div>
<p class="muted" id="user-search-hint">${t("console:users.searchHint")}</p>
</form>
<p id="user-count" role="status">${summary}</p>
${
  found.users.length === 0
    ? ""
    : html`<table class="responsive" id="user-list"><caption class="visually-hidden">${t("settings:users.title")}</caption><thead><tr><th scope="col">${t("settings:profile.username")}</th><th scope="col">${t("settings:profile.fullName")}</th><th scope="col">${t("settings:profile.email")}</th><th scope="col">${t("settings:users.state")}</th><th scope="col">${t("console:users.groups")}</th><th scope="col">${t("console:users.lastLogin")}</th><th scope="col">${t("secondFactor:admin.column")}</th></tr></thead><tbody>
${found.users.map((u) => userRow(translator, u, memberships.get(u.uid), factors.get(u.uid)))}</tbody></table>`
}
${pager(t, text, page, pages)}
<h2>${t("settings:users.create")}</h2>
<form method="post" action="${USERS_FORM_PATH}" id="create-user">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="new-user-uid">${t("settings:profile.username")}</label><input type="text" id="new-user-uid" name="uid" maxlength="64" required value="${formValues.uid ?? ""}">
<label for="new-user-display-name">${t("settings:profile.fullName")}</label><input type="text" id="new-user-display-name" name="display_name" maxlength="255" value="${formValues.display_name ?? ""}">
<label for="new-user-email">${t("settings:profile.email")}</label><input type="email" id="new-user-email" name="email" maxlength="255" value="${formValues.email ?? ""}">
<label for="new-user-password">${t("settings:users.password")}</label><input type="password" id="new-user-password" name="password" autocomplete="new-password" minlength="8" required>
<label class="check"><input type="checkbox" name="is_admin" value="1"${formValues.is_admin !== undefined ? html` checked` : ""}> ${t("settings:users.admin")}</label>
<p><button type="submit">${t("settings:users.createButton")}</button></p>
</form>`;
    },
  });

  await app.register(
    guarded(ADMIN_PAGE, (pages) => {
      pages.get(`${SETTINGS_PAGES.users.path}/:uid`, async (request, reply) =>
        sendUserPage(request, reply, request.principal, (request.params as { uid: string }).uid),
      );
    }),
  );

  await app.register(
    guarded(ADMIN_FORM, (forms) => {
      // A refused new user comes back in the users area with the form as sent (account-errors.ts).
      const accountRefusal = {
        page: "users",
        sectionId: SECTION_ID,
        elementId: "users-error",
        refill: ["uid", "display_name", "email", "is_admin"],
      } as const;
      forms.post(USERS_FORM_PATH, { config: { accountRefusal } }, async (request, reply) => {
        const { principal } = request;
        const user = await users.create({
          uid: (formField(request, "uid") ?? "").trim(),
          password: formField(request, "password") ?? "",
          displayName: (formField(request, "display_name") ?? "").trim() || undefined,
          email: (formField(request, "email") ?? "").trim() || undefined,
          isAdmin: formField(request, "is_admin") !== undefined,
        });
        log.info({ event: "user_created", uid: user.uid, by: principal.user.uid }, "user created on the admin page");
        const { t } = userTranslator(request, principal);
        return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.users.path, {
          sectionId: SECTION_ID,
          message: html`<p class="notice" id="users-notice" role="status">${t("settings:users.created", { uid: user.uid })} <a href="${userPagePath(user.uid)}">${t("console:users.openUser", { uid: user.uid })}</a></p>`,
        });
      });
    }),
  );

  await adminUserActionRoutes(app);
}
