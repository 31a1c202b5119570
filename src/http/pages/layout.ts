import type { FastifyReply } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import type { Translator } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";
import { STYLESHEET_PATH } from "./stylesheet.js";

/** The places of the main navigation; `current` marks one with aria-current. */
export const NAVIGATION = {
  activity: "/index.php/apps/activity/",
  personal: "/index.php/settings/personal",
  admin: "/index.php/settings/admin",
} as const;

export type NavigationPlace = keyof typeof NAVIGATION;

/** Who is logged in, as the header shows them: name, logout form, and the admin link when allowed. */
export interface HeaderUser {
  displayName: string;
  csrfToken: string;
  isAdmin?: boolean | undefined;
}

export function headerUser(principal: Principal): HeaderUser {
  return {
    displayName: principal.user.displayName,
    csrfToken: principal.session?.csrfToken ?? "",
    isAdmin: principal.user.isAdmin,
  };
}

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** The reader's language (src/http/i18n.ts `requestTranslator`): every text and the `lang` attribute. */
  translator: Translator;
  /** Shown in the header with the navigation and a logout button when someone is logged in. */
  user?: HeaderUser | undefined;
  /** The navigation entry this page belongs to. */
  current?: NavigationPlace | undefined;
  /** A form-sized card (login, consent, messages) instead of the full width. */
  narrow?: boolean | undefined;
  /**
   * On error pages: the request id (X-Request-Id, in the request's log lines), so that a person's
   * report can be matched to the log.
   */
  reference?: string | undefined;
}

function navigation(options: PageOptions, user: HeaderUser): SafeHtml {
  const { t } = options.translator;
  const places: Array<[NavigationPlace, string]> = [
    ["activity", t("pages:layout.nav.activity")],
    ["personal", t("pages:layout.nav.personal")],
  ];
  if (user.isAdmin) places.push(["admin", t("pages:layout.nav.admin")]);
  return html`<nav class="main-nav" aria-label="${t("pages:layout.mainNavigation")}"><ul>${places.map(
    ([place, label]) =>
      html`<li><a href="${NAVIGATION[place]}"${place === options.current ? html` aria-current="page"` : ""}>${label}</a></li>`,
  )}</ul></nav>`;
}

export function layout(options: PageOptions): SafeHtml {
  const { t, language } = options.translator;
  const user = options.user;
  return html`<!DOCTYPE html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title} - Keystream</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<a class="skip-link" href="#content">${t("pages:layout.skipToContent")}</a>
<header class="site-header"><div class="bar"><a class="brand" href="/">Keystream</a>${
    user
      ? html`${navigation(options, user)}<div class="account"><span class="who">${t("pages:layout.loggedInAs", { name: user.displayName })}</span>
<form method="post" action="/index.php/logout"><input type="hidden" name="requesttoken" value="${user.csrfToken}"><button class="logout" type="submit" id="logout">${t("pages:layout.logOut")}</button></form></div>`
      : ""
  }</div></header>
<main id="content" tabindex="-1"><div class="card${options.narrow ? " narrow" : ""}">
${options.body}${
  options.reference === undefined
    ? ""
    : html`
<p class="muted" id="request-id">${t("pages:layout.reference")} <code>${options.reference}</code></p>`
}
</div></main>
</body>
</html>`;
}

/**
 * The Content-Security-Policy of every page: everything from this origin only, no inline script
 * or style (the stylesheet is a file, http/routes/assets.ts), no framing, no plugins.
 */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/**
 * Sends an HTML page with the security headers every page carries: no framing (clickjacking on
 * consent and settings), no MIME sniffing, no referrer (pages may carry codes in their URL),
 * no caching of personal pages.
 */
export function sendPage(reply: FastifyReply, page: SafeHtml, status = 200): FastifyReply {
  return reply
    .status(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("content-security-policy", PAGE_CSP)
    .header("x-frame-options", "DENY")
    .header("x-content-type-options", "nosniff")
    .header("referrer-policy", "no-referrer")
    .header("cache-control", "no-store")
    .send(page.value);
}

/** A page with a heading, one sentence and a way back (errors, refusals, confirmations). */
export function messagePage(
  translator: Translator,
  title: string,
  message: string,
  user?: HeaderUser,
  reference?: string,
): SafeHtml {
  return layout({
    translator,
    title,
    user,
    reference,
    narrow: true,
    body: html`<h1>${title}</h1><p>${message}</p><p><a href="/">${translator.t("pages:layout.backHome")}</a></p>`,
  });
}
