import type { FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../../accounts/authentication.js";
import type { UserListing } from "../../../accounts/ports.js";
import type { Translator } from "../../../i18n/index.js";
import { isProviderId } from "../../../second-factor/providers.js";
import { html, type SafeHtml } from "../../html.js";
import { userTranslator } from "../../i18n.js";
import { userFormPath } from "../admin-user-paths.js";
import { sendAdminPage, sendSettingsPage } from "../page.js";
import { takeFlash } from "../settings-flash.js";
import { type FormValues, SETTINGS_PAGES } from "../settings-sections.js";
import { formatDate } from "../views/format.js";
import { providerName, userFactorsCell } from "../views/second-factors.js";

/** The names of the second factors a user has on, for the users table ("none" without). */
export function factorNames(t: Translator["t"], providers: readonly string[] | undefined): string {
  const ids = (providers ?? []).filter(isProviderId);
  return ids.length === 0 ? t("secondFactor:admin.none") : ids.map((id) => providerName(t, id)).join(", ");
}

/** What a refused form on the user's page shows: the reason, and the form's fields as sent. */
export interface UserPageRefusal {
  message: string;
  formValues?: FormValues | undefined;
}

function postButton(csrfToken: string, action: string, label: string, options: { danger?: boolean; id?: string } = {}): SafeHtml {
  return html`<form method="post" action="${action}"${options.id ? html` id="${options.id}"` : ""}><input type="hidden" name="requesttoken" value="${csrfToken}"><button type="submit"${options.danger ? html` class="danger"` : ""}>${label}</button></form>`;
}

/**
 * One user's page: what the account is (state, role, last sign-in, second factors, how many
 * sessions and credentials it has) and every change an administrator makes to it, each a form
 * whose answer is a redirect back here with a notice at the top (post/redirect/get,
 * settings-flash.ts). A refused change is shown at the top with the form as it was sent.
 */
export async function sendUserPage(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  uid: string,
  refusal?: UserPageRefusal,
  status = 200,
): Promise<FastifyReply> {
  const translator = userTranslator(request, principal);
  const { t } = translator;
  const { users, groups, sessions, appPasswords, oauth, secondFactors } = request.server.services;
  const user = await users.requireListing(uid).catch(() => undefined);
  if (!user) {
    const message = html`<p class="error" id="users-error">${t("accountErrors:noSuchUser", { uid })}</p>`;
    return sendSettingsPage(request, reply, principal, "users", { sectionId: "users", message }, 404);
  }
  const flash = request.method === "GET" ? takeFlash(request, reply, principal) : undefined;
  const notice = refusal ? html`<p class="error" id="user-error" role="alert">${refusal.message}</p>` : (flash?.message ?? "");
  const [memberships, live, passwords, clients, factors] = await Promise.all([
    groups.groupsOf(uid),
    sessions.listOf(uid),
    appPasswords.list(uid),
    oauth.authorizedClients(uid),
    secondFactors.enabledByUser([uid]),
  ]);
  const csrfToken = principal.session?.csrfToken ?? "";
  const self = uid === principal.user.uid;
  const values = refusal?.formValues ?? {};
  const body = html`<p><a href="${SETTINGS_PAGES.users.path}">${t("console:user.back")}</a></p>
${notice}
<section id="user-facts"><h2>${t("console:user.account")}</h2>
${facts(translator, user, memberships, { sessions: live.length, appPasswords: passwords.length, applications: clients.length })}
</section>
<section id="user-profile"><h2>${t("settings:profile.title")}</h2>
<form method="post" action="${userFormPath(uid, "profile")}" id="user-profile-form">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="user-display-name">${t("settings:profile.fullName")}</label><input type="text" id="user-display-name" name="display_name" maxlength="255" required value="${values.display_name ?? user.displayName}">
<label for="user-email">${t("settings:profile.email")}</label><input type="email" id="user-email" name="email" maxlength="255" value="${values.email ?? user.email ?? ""}" aria-describedby="user-email-hint">
<p class="muted" id="user-email-hint">${t("console:user.emailHint")}</p>
<div class="actions"><button type="submit">${t("settings:common.save")}</button></div>
</form></section>
<section id="user-role"><h2>${t("settings:users.role")}</h2>
<p>${user.isAdmin ? t("console:user.isAdmin") : t("console:user.isNotAdmin")}</p>
${
  self
    ? html`<p class="muted">${t("console:user.selfRole")}</p>`
    : user.isAdmin
      ? postButton(csrfToken, userFormPath(uid, "demote"), t("console:user.demote"), { danger: true, id: "user-demote" })
      : postButton(csrfToken, userFormPath(uid, "promote"), t("console:user.promote"), { id: "user-promote" })
}
</section>
<section id="user-factors"><h2>${t("secondFactor:admin.column")}</h2>
${userFactorsCell(t, csrfToken, uid, factors.get(uid))}
</section>
<section id="user-sign-out"><h2>${t("console:user.signOutTitle")}</h2>
<p>${t("console:user.signOutIntro")}</p>
${self ? html`<p class="muted">${t("console:user.selfSignOut")}</p>` : postButton(csrfToken, userFormPath(uid, "sign-out"), t("console:user.signOut"), { danger: true, id: "user-sign-out-form" })}
</section>
<section id="user-password"><h2>${t("settings:password.title")}</h2>
<form method="post" action="${userFormPath(uid, "password")}" id="user-password-form">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="user-new-password">${t("settings:users.newPasswordFor", { uid })}</label>
<input type="password" id="user-new-password" name="password" autocomplete="new-password" minlength="8" required aria-describedby="user-password-hint">
<p class="muted" id="user-password-hint">${t("console:user.passwordHint")}</p>
<div class="actions"><button type="submit">${t("settings:users.resetPassword")}</button></div>
</form></section>
${
  self
    ? ""
    : html`<section id="user-state"><h2>${t("console:user.stateTitle")}</h2>
<div class="actions">${
        user.enabled
          ? postButton(csrfToken, userFormPath(uid, "disable"), t("settings:users.disable"), { id: "user-disable" })
          : postButton(csrfToken, userFormPath(uid, "enable"), t("settings:users.enable"), { id: "user-enable" })
      }</div>
<details class="confirm"><summary>${t("console:user.deleteSummary", { uid })}</summary>
<p>${t("console:user.deleteHint")}</p>
${postButton(csrfToken, userFormPath(uid, "delete"), t("settings:users.delete"), { danger: true, id: "user-delete" })}</details></section>`
}`;
  return sendAdminPage(request, reply, principal, "users", { heading: t("console:user.title", { uid }), body }, status);
}

function facts(
  translator: Translator,
  user: UserListing,
  memberships: readonly string[],
  counts: { sessions: number; appPasswords: number; applications: number },
): SafeHtml {
  const { t } = translator;
  const email =
    user.email === null
      ? "–"
      : html`${user.email} (${user.emailVerified ? t("console:user.verified") : t("console:user.unverified")})`;
  return html`<dl class="facts stack-narrow" id="user-facts-list">
<dt>${t("settings:profile.username")}</dt><dd>${user.uid}</dd>
<dt>${t("settings:profile.fullName")}</dt><dd>${user.displayName}</dd>
<dt>${t("settings:profile.email")}</dt><dd>${email}</dd>
<dt>${t("settings:users.state")}</dt><dd>${user.enabled ? t("settings:users.enabled") : t("settings:users.disabled")}</dd>
<dt>${t("console:users.groups")}</dt><dd>${memberships.join(", ") || "–"}</dd>
<dt>${t("console:user.created")}</dt><dd>${formatDate(translator, user.createdAt)}</dd>
<dt>${t("console:users.lastLogin")}</dt><dd>${formatDate(translator, user.lastLoginAt)}</dd>
<dt>${t("console:user.sessions")}</dt><dd>${String(counts.sessions)}</dd>
<dt>${t("console:user.appPasswords")}</dt><dd>${String(counts.appPasswords)}</dd>
<dt>${t("console:user.applications")}</dt><dd>${String(counts.applications)}</dd>
</dl>`;
}
