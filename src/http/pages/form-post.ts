import type { Translator } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";
import { layout } from "./layout.js";

export const FORM_POST_SCRIPT_PATH = "/index.php/apps/oauth2/js/form-post.js";

/**
 * The script of the form_post page, a file of its own because the pages' CSP is
 * `script-src 'self'` (no inline script): it submits the page's one form as soon as it loads.
 */
export const FORM_POST_SCRIPT = `"use strict";
var form = document.getElementById("form-post");
if (form) form.submit();
`;

/**
 * OAuth 2.0 Form Post Response Mode §2: an HTML page whose form posts the authorization response's
 * parameters to the redirect URI, submitted by the page's script (FORM_POST_SCRIPT); without
 * JavaScript, the person presses the Continue button instead.
 */
export function formPostPage(translator: Translator, action: string, fields: ReadonlyArray<readonly [string, string]>): SafeHtml {
  const { t } = translator;
  return layout({
    translator,
    title: t("pages:formPost.title"),
    narrow: true,
    body: html`<h1>${t("pages:formPost.title")}</h1>
<form method="post" action="${action}" id="form-post">
${fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<noscript><p>${t("pages:formPost.noScript")}</p><div class="actions"><button type="submit" id="form-post-continue">${t("pages:formPost.continue")}</button></div></noscript>
</form>
<script src="${FORM_POST_SCRIPT_PATH}"></script>`,
  });
}
