import type { Translator } from "../../i18n/index.js";
import { scopeDefinitions } from "../../oauth/domain/scope.js";
import { html, type SafeHtml } from "../html.js";
import { type HeaderUser, layout } from "./layout.js";
import { translatedHtml } from "./translated-html.js";

export interface PageUser extends HeaderUser {
  uid: string;
}

/**
 * docs/upstream/owncloud-oauth2.md A.2.5: the display name in bold (uid as tooltip) when it differs from
 * the uid, else the uid.
 */
export function userLabel(user: { uid: string; displayName: string }): SafeHtml {
  return user.displayName !== user.uid
    ? html`<span title="${user.uid}"><strong>${user.displayName}</strong></span>`
    : html`<strong>${user.uid}</strong>`;
}

/**
 * What the application gets, in plain words: the line of each granted scope, in the catalogue's
 * order (src/oauth/domain/scope.ts; src/oidc/claims.ts decides what each sign-in scope discloses).
 */
export function grantedAccess(t: Translator["t"], scope: string): string[] {
  return scopeDefinitions(scope).flatMap((definition) => (definition.consentLine === null ? [] : [t(definition.consentLine)]));
}

export interface ConsentModel {
  translator: Translator;
  clientName: string;
  user: PageUser;
  logoutUrl: string;
  /** What the request is granted if the user allows it. */
  scope: string;
  /** The registered redirect URI the answer goes to; its host is named on the page. */
  redirectUri: string;
  /** The client registered itself (RFC 7591): the page says so, since no administrator vouched for it. */
  selfRegistered?: boolean;
}

function hostOf(uri: string): string {
  try {
    return new URL(uri).host || uri;
  } catch {
    return uri;
  }
}

/**
 * docs/upstream/owncloud-oauth2.md A.2.3: the consent page. The form posts to the same URL (query
 * included) with the CSRF token; Allow and Deny are two submit buttons of that one form, so both pass the
 * same checks.
 */
export function consentPage(model: ConsentModel): SafeHtml {
  const { translator } = model;
  const { t } = translator;
  return layout({
    translator,
    title: t("pages:consent.title"),
    user: model.user,
    narrow: true,
    body: html`<h1>${t("pages:consent.title")}</h1>
<p><strong>${t("pages:consent.question", { name: model.clientName })}</strong></p>
${model.selfRegistered ? html`<p id="oauth-self-registered" class="notice">${t("pages:consent.selfRegistered")}</p>` : ""}
<p id="oauth-current-user">${translatedHtml(translator, "pages:consent.loggedInAs", { user: userLabel(model.user) })}</p>
<p>${t("pages:consent.gets")}</p>
<ul class="scopes" id="oauth-scopes">${grantedAccess(t, model.scope).map((line) => html`<li>${line}</li>`)}</ul>
<p>${t("pages:consent.revocable")}</p>
<p class="muted">${translatedHtml(translator, "pages:consent.returnsTo", { host: html`<strong>${hostOf(model.redirectUri)}</strong>` })}</p>
<form method="post" action="" id="oauth-consent">
<input type="hidden" name="requesttoken" value="${model.user.csrfToken}">
<div class="actions"><button type="submit" id="authorize" autofocus>${t("pages:consent.allow")}</button>
<button type="submit" class="secondary" id="deny" name="deny" value="1">${t("pages:consent.deny")}</button></div>
</form>
<p><a href="${model.logoutUrl}" id="oauth-switch-user">${t("pages:consent.switchUser")}</a></p>`,
  });
}

/** Why an authorization request was refused without a redirect (src/oauth/authorize.ts `InvalidReason`). */
export type AuthorizeErrorReason = "invalid_parameters" | "unknown_client" | "redirect_uri_mismatch";

/**
 * docs/upstream/owncloud-oauth2.md A.2.2: "Request not valid", saying what is wrong in a person's words
 * and showing the request id, so the administrator can find the log line. Never a redirect: nothing is
 * proven.
 */
export function authorizeErrorPage(model: {
  translator: Translator;
  reason: AuthorizeErrorReason;
  clientName: string | null;
  user?: PageUser | undefined;
  reference: string;
}): SafeHtml {
  const { t } = model.translator;
  const reason =
    model.reason === "invalid_parameters"
      ? t("pages:authorizeError.reason.invalidParameters")
      : model.reason === "unknown_client"
        ? t("pages:authorizeError.reason.unknownClient")
        : t("pages:authorizeError.reason.redirectUri", { name: model.clientName ?? "" });
  const contact =
    model.clientName === null
      ? t("pages:authorizeError.contact")
      : t("pages:authorizeError.contactClient", { name: model.clientName });
  return layout({
    translator: model.translator,
    title: t("pages:authorizeError.title"),
    user: model.user,
    reference: model.reference,
    narrow: true,
    body: html`<h1>${t("pages:authorizeError.title")}</h1>
<p class="error" id="oauth-error-reason" data-reason="${model.reason}">${reason}</p>
<p id="oauth-error">${contact}</p>
<p><a href="/">${t("pages:layout.backHome")}</a></p>`,
  });
}

/**
 * The application's allowed groups do not admit the signed-in user (docs/oauth2.md), for an
 * ownCloud or Nextcloud client, which would not show an error sent to its redirect URI.
 */
export function notAvailablePage(model: {
  translator: Translator;
  clientName: string;
  user: PageUser;
  reference: string;
}): SafeHtml {
  const { t } = model.translator;
  return layout({
    translator: model.translator,
    title: t("groups:notAvailableTitle"),
    user: model.user,
    reference: model.reference,
    narrow: true,
    body: html`<h1>${t("groups:notAvailableTitle")}</h1>
<p class="error" id="oauth-error-reason" data-reason="not_available">${t("groups:notAvailable", { name: model.clientName })}</p>
<p><a href="/">${t("pages:layout.backHome")}</a></p>`,
  });
}

/** docs/upstream/owncloud-oauth2.md A.2.5: the application asked for another user than the one logged in. */
export function switchUserPage(translator: Translator, user: PageUser, requestedUser: string, logoutUrl: string): SafeHtml {
  const { t } = translator;
  return layout({
    translator,
    title: t("pages:switchUser.title"),
    user,
    narrow: true,
    body: html`<h1>${t("pages:switchUser.title")}</h1>
<p>${translatedHtml(translator, "pages:switchUser.text", { user: userLabel(user), requested: html`<strong>${requestedUser}</strong>` })}</p>
<p><a href="${logoutUrl}" id="oauth-switch-user">${t("pages:consent.switchUser")}</a></p>`,
  });
}

/** ownCloud's authorization-successful page (docs/upstream/owncloud-oauth2.md A.2.6). */
export function authorizationSuccessfulPage(translator: Translator, user: PageUser): SafeHtml {
  const { t } = translator;
  return layout({
    translator,
    title: t("pages:success.title"),
    user,
    narrow: true,
    body: html`<h1>${t("pages:success.title")}</h1>
<p id="oauth-success">${t("pages:success.text")}</p>
<p class="muted"><a href="/index.php/settings/personal#oauth2">${t("pages:success.manage")}</a></p>`,
  });
}
