import type { UserListing } from "../../../accounts/ports.js";
import type { Translator } from "../../../i18n/index.js";
import { html, type SafeHtml } from "../../html.js";
import { userFormPath } from "../admin-user-paths.js";
import { type FormValues, SETTINGS_PAGES } from "../settings-sections.js";
import { formatDate } from "./format.js";
import { userFactorsCell } from "./second-factors.js";

interface UserPageModel {
  user: UserListing;
  memberships: readonly string[];
  counts: { sessions: number; appPasswords: number; applications: number };
  /** The providers the user has on. */
  factors: readonly string[] | undefined;
  /** The administrator is looking at their own account: no role change, sign-out, disabling or deleting. */
  self: boolean;
  csrfToken: string;
  /** At the top: a refusal (read out at once), or the notice of the change just made. */
  refusal: string | undefined;
  flash: SafeHtml | undefined;
  /** A refused form's fields as sent. */
  formValues: FormValues;
}

function postButton(csrfToken: string, action: string, label: string, options: { danger?: boolean; id?: string } = {}): SafeHtml {
  return html`<form method="post" action="${action}"${options.id ? html` id="${options.id}"` : ""}><input type="hidden" name="requesttoken" value="${csrfToken}"><button type="submit"${options.danger ? html` class="danger"` : ""}>${label}</button></form>`;
}

/** One user's page in the console: what the account is, and every change an administrator makes to it. */
export function userPageBody(translator: Translator, model: UserPageModel): SafeHtml {
  const { t } = translator;
  const { user, csrfToken } = model;
  const uid = user.uid;
  const notice =
    model.refusal !== undefined ? html`<p class="error" id="user-error" role="alert">${model.refusal}</p>` : (model.flash ?? "");
  return html`<p><a href="${SETTINGS_PAGES.users.path}">${t("console:user.back")}</a></p>
${notice}
<section id="user-facts"><h2>${t("console:user.account")}</h2>
${facts(translator, user, model.memberships, model.counts)}
</section>
${profileForm(t, model)}
<section id="user-role"><h2>${t("settings:users.role")}</h2>
<p>${user.isAdmin ? t("console:user.isAdmin") : t("console:user.isNotAdmin")}</p>
${
  model.self
    ? html`<p class="muted">${t("console:user.selfRole")}</p>`
    : user.isAdmin
      ? postButton(csrfToken, userFormPath(uid, "demote"), t("console:user.demote"), { danger: true, id: "user-demote" })
      : postButton(csrfToken, userFormPath(uid, "promote"), t("console:user.promote"), { id: "user-promote" })
}
</section>
<section id="user-factors"><h2>${t("secondFactor:admin.column")}</h2>
${userFactorsCell(t, csrfToken, uid, model.factors)}
</section>
<section id="user-sign-out"><h2>${t("console:user.signOutTitle")}</h2>
<p>${t("console:user.signOutIntro")}</p>
${model.self ? html`<p class="muted">${t("console:user.selfSignOut")}</p>` : postButton(csrfToken, userFormPath(uid, "sign-out"), t("console:user.signOut"), { danger: true, id: "user-sign-out-form" })}
</section>
${passwordForm(t, uid, csrfToken)}
${model.self ? "" : stateSection(t, user, csrfToken)}`;
}

function profileForm(t: Translator["t"], model: UserPageModel): SafeHtml {
  const { user, formValues: values } = model;
  return html`<section id="user-profile"><h2>${t("settings:profile.title")}</h2>
<form method="post" action="${userFormPath(user.uid, "profile")}" id="user-profile-form">
<input type="hidden" name="requesttoken" value="${model.csrfToken}">
<label for="user-display-name">${t("settings:profile.fullName")}</label><input type="text" id="user-display-name" name="display_name" maxlength="255" required value="${values.display_name ?? user.displayName}">
<label for="user-email">${t("settings:profile.email")}</label><input type="email" id="user-email" name="email" maxlength="255" value="${values.email ?? user.email ?? ""}" aria-describedby="user-email-hint">
<p class="muted" id="user-email-hint">${t("console:user.emailHint")}</p>
<div class="actions"><button type="submit">${t("settings:common.save")}</button></div>
</form></section>`;
}

function passwordForm(t: Translator["t"], uid: string, csrfToken: string): SafeHtml {
  return html`<section id="user-password"><h2>${t("settings:password.title")}</h2>
<form method="post" action="${userFormPath(uid, "password")}" id="user-password-form">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="user-new-password">${t("settings:users.newPasswordFor", { uid })}</label>
<input type="password" id="user-new-password" name="password" autocomplete="new-password" minlength="8" required aria-describedby="user-password-hint">
<p class="muted" id="user-password-hint">${t("console:user.passwordHint")}</p>
<div class="actions"><button type="submit">${t("settings:users.resetPassword")}</button></div>
</form></section>`;
}

/** Disable or enable, and delete behind a disclosure. */
function stateSection(t: Translator["t"], user: UserListing, csrfToken: string): SafeHtml {
  const uid = user.uid;
  return html`<section id="user-state"><h2>${t("console:user.stateTitle")}</h2>
<div class="actions">${
    user.enabled
      ? postButton(csrfToken, userFormPath(uid, "disable"), t("settings:users.disable"), { id: "user-disable" })
      : postButton(csrfToken, userFormPath(uid, "enable"), t("settings:users.enable"), { id: "user-enable" })
  }</div>
<details class="confirm"><summary>${t("console:user.deleteSummary", { uid })}</summary>
<p>${t("console:user.deleteHint")}</p>
${postButton(csrfToken, userFormPath(uid, "delete"), t("settings:users.delete"), { danger: true, id: "user-delete" })}</details></section>`;
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
