import type { UserListing } from "../../../accounts/ports.js";
import type { Translator } from "../../../i18n/index.js";
import { isProviderId } from "../../../second-factor/providers.js";
import { html, type SafeHtml } from "../../html.js";
import { USERS_FORM_PATH, userPagePath } from "../admin-user-paths.js";
import { type FormValues, SETTINGS_PAGES } from "../settings-sections.js";
import { formatDate } from "./format.js";
import { providerName } from "./second-factors.js";

type T = Translator["t"];

interface UsersModel {
  /** The search text (`?q=`), "" for every user. */
  text: string;
  maxSearchLength: number;
  /** The page shown, from 1, and how many there are. */
  page: number;
  pages: number;
  /** The users of this page, how many match in all, and the first one's position. */
  users: readonly UserListing[];
  total: number;
  first: number;
  memberships: ReadonlyMap<string, readonly string[]>;
  factors: ReadonlyMap<string, readonly string[]>;
  csrfToken: string;
  flash: SafeHtml | undefined;
  /** The create form as a refused one was sent. */
  formValues: FormValues;
}

/** The users area: the search, one page of users, the pager and the form that creates a user. */
export function usersSection(translator: Translator, model: UsersModel): SafeHtml {
  const { t } = translator;
  const { text } = model;
  // The area's heading (h1) says "Users"; the list needs no heading of its own.
  return html`${model.flash ?? ""}
<form method="get" action="${SETTINGS_PAGES.users.path}" role="search" class="search" id="user-search-form">
<label for="user-search">${t("console:users.search")}</label>
<div class="search-row"><input type="search" id="user-search" name="q" maxlength="${model.maxSearchLength}" value="${text}" aria-describedby="user-search-hint">
<button type="submit">${t("console:users.searchButton")}</button>${text === "" ? "" : html` <a class="button secondary" href="${SETTINGS_PAGES.users.path}">${t("console:users.clear")}</a>`}</div>
<p class="muted" id="user-search-hint">${t("console:users.searchHint")}</p>
</form>
<p id="user-count" role="status">${summary(t, model)}</p>
${
  model.users.length === 0
    ? ""
    : html`<table class="responsive" id="user-list"><caption class="visually-hidden">${t("settings:users.title")}</caption><thead><tr><th scope="col">${t("settings:profile.username")}</th><th scope="col">${t("settings:profile.fullName")}</th><th scope="col">${t("settings:profile.email")}</th><th scope="col">${t("settings:users.state")}</th><th scope="col">${t("console:users.groups")}</th><th scope="col">${t("console:users.lastLogin")}</th><th scope="col">${t("secondFactor:admin.column")}</th></tr></thead><tbody>
${model.users.map((u) => userRow(translator, u, model.memberships.get(u.uid), model.factors.get(u.uid)))}</tbody></table>`
}
${pager(t, text, model.page, model.pages)}
<h2>${t("settings:users.create")}</h2>
${createUserForm(t, model.csrfToken, model.formValues)}`;
}

function summary(t: T, model: UsersModel): string {
  if (model.users.length === 0)
    return model.text === "" ? t("console:users.none") : t("console:users.noMatch", { text: model.text });
  return t("console:users.showing", { first: model.first, last: model.first + model.users.length - 1, total: model.total });
}

function createUserForm(t: T, csrfToken: string, formValues: FormValues): SafeHtml {
  return html`<form method="post" action="${USERS_FORM_PATH}" id="create-user">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="new-user-uid">${t("settings:profile.username")}</label><input type="text" id="new-user-uid" name="uid" maxlength="64" required value="${formValues.uid ?? ""}">
<label for="new-user-display-name">${t("settings:profile.fullName")}</label><input type="text" id="new-user-display-name" name="display_name" maxlength="255" value="${formValues.display_name ?? ""}">
<label for="new-user-email">${t("settings:profile.email")}</label><input type="email" id="new-user-email" name="email" maxlength="255" value="${formValues.email ?? ""}">
<label for="new-user-password">${t("settings:users.password")}</label><input type="password" id="new-user-password" name="password" autocomplete="new-password" minlength="8" required>
<label class="check"><input type="checkbox" name="is_admin" value="1"${formValues.is_admin !== undefined ? html` checked` : ""}> ${t("settings:users.admin")}</label>
<p><button type="submit">${t("settings:users.createButton")}</button></p>
</form>`;
}

/** The names of the second factors a user has on, for the users table ("none" without). */
function factorNames(t: T, providers: readonly string[] | undefined): string {
  const ids = (providers ?? []).filter(isProviderId);
  return ids.length === 0 ? t("secondFactor:admin.none") : ids.map((id) => providerName(t, id)).join(", ");
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

function listUrl(text: string, page: number): string {
  const query = new URLSearchParams();
  if (text !== "") query.set("q", text);
  if (page > 1) query.set("page", String(page));
  const search = query.toString();
  return search === "" ? SETTINGS_PAGES.users.path : `${SETTINGS_PAGES.users.path}?${search}`;
}

/** Previous and next page links, and where this page is. */
function pager(t: T, text: string, page: number, pages: number): SafeHtml {
  if (pages <= 1) return html``;
  return html`<nav class="pager" aria-label="${t("console:users.pages")}"><ul>
<li>${page > 1 ? html`<a rel="prev" href="${listUrl(text, page - 1)}">${t("console:users.previous")}</a>` : ""}</li>
<li aria-current="page">${t("console:users.pageOf", { page, pages })}</li>
<li>${page < pages ? html`<a rel="next" href="${listUrl(text, page + 1)}">${t("console:users.next")}</a>` : ""}</li>
</ul></nav>`;
}

/** The notice after a user was created, with the link to their page. */
export function userCreatedNotice(t: T, uid: string): SafeHtml {
  return html`<p class="notice" id="users-notice" role="status">${t("settings:users.created", { uid })} <a href="${userPagePath(uid)}">${t("console:users.openUser", { uid })}</a></p>`;
}
