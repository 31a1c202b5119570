import type { FastifyReply } from "fastify";
import { type Translator, translatorFor } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f4f6f8;color:#1d2d3e}
header{background:#1d2d3e;color:#fff;padding:.8rem 1.5rem;display:flex;justify-content:space-between;align-items:center}
header a,header button{color:#fff}
header form{display:inline}
main{max-width:46rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin-top:0}
h2{font-size:1.1rem;margin-top:2rem;border-bottom:1px solid #dde3e8;padding-bottom:.3rem}
label{display:block;margin:.8rem 0 .2rem}
td label{display:inline;margin:0}
td input[type=checkbox]{margin:0}
th.narrow,td.narrow{width:2rem}
input[type=text],input[type=password],input[type=email],input[type=url]{width:100%;padding:.5rem;box-sizing:border-box;border:1px solid #b8c2cc;border-radius:4px}
button{padding:.5rem 1rem;border:0;border-radius:4px;background:#0082c9;color:#fff;cursor:pointer}
button.link{background:none;color:#0082c9;padding:0;text-decoration:underline}
button.danger{background:#c9302c}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.35rem;border-bottom:1px solid #eef1f4;vertical-align:top}
.error{background:#fde8e8;color:#8a1f1f;padding:.6rem;border-radius:4px}
.notice{background:#e6f4ea;color:#1e5631;padding:.6rem;border-radius:4px}
code.secret{word-break:break-all;background:#f4f6f8;padding:.2rem .4rem}
.muted{color:#5f6b77;font-size:.9rem}
`;

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** Shown in the header with a logout button when someone is logged in. */
  user?: { displayName: string; csrfToken: string } | undefined;
  /**
   * On error pages: the request id (X-Request-Id, in the request's log lines), so that a person's
   * report can be matched to the log (issue 18, review F24).
   */
  reference?: string | undefined;
  /** The reader's language (src/http/i18n.ts `requestTranslator`); English when a page has none yet. */
  translator?: Translator | undefined;
}

export function layout(options: PageOptions): SafeHtml {
  const { t, language } = options.translator ?? translatorFor("en");
  return html`<!DOCTYPE html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title} - Keystream</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip-link" href="#content">${t("pages:layout.skipToContent")}</a>
<header><strong>Keystream</strong>${
    options.user
      ? html`<span><a href="/index.php/settings/personal">${options.user.displayName}</a>
<form method="post" action="/index.php/logout"><input type="hidden" name="requesttoken" value="${options.user.csrfToken}"> <button class="link" type="submit" id="logout">${t("pages:layout.logOut")}</button></form></span>`
      : ""
  }</header>
<main id="content">
${options.body}${
  options.reference === undefined
    ? ""
    : html`
<p class="muted" id="request-id">${t("pages:layout.reference")} <code>${options.reference}</code></p>`
}
</main>
</body>
</html>`;
}

/**
 * Sends an HTML page with the security headers every page carries: no framing (clickjacking on
 * consent and settings), no MIME sniffing, no referrer (pages may carry codes in their URL),
 * no caching of personal pages.
 */
export function sendPage(reply: FastifyReply, page: SafeHtml, status = 200): FastifyReply {
  return reply
    .status(status)
    .header("content-type", "text/html; charset=utf-8")
    .header(
      "content-security-policy",
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
    )
    .header("x-frame-options", "DENY")
    .header("x-content-type-options", "nosniff")
    .header("referrer-policy", "no-referrer")
    .header("cache-control", "no-store")
    .send(page.value);
}

export function messagePage(title: string, message: string, user?: PageOptions["user"], reference?: string): SafeHtml {
  return layout({ title, user, reference, body: html`<h1>${title}</h1><p>${message}</p>` });
}
