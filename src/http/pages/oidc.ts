import type { Translator } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";
import { type HeaderUser, layout } from "./layout.js";

/**
 * RP-Initiated Logout 1.0 §2: "the OP SHOULD ask the End-User whether to log out" when the request
 * does not prove the logged-in user asked for it. The form posts the checked parameters back.
 */
export function endSessionConfirmPage(model: {
  translator: Translator;
  action: string;
  csrfToken: string;
  params: Record<string, string>;
  clientName: string | undefined;
  user: HeaderUser;
}): SafeHtml {
  const { t } = model.translator;
  return layout({
    translator: model.translator,
    title: t("pages:logout.title"),
    user: model.user,
    narrow: true,
    body: html`<h1>${t("pages:logout.title")}</h1>
<p id="oidc-logout-question">${
      model.clientName === undefined ? t("pages:logout.question") : t("pages:logout.questionClient", { name: model.clientName })
    }</p>
<form method="post" action="${model.action}" id="oidc-logout-confirm">
<input type="hidden" name="requesttoken" value="${model.csrfToken}">
${Object.entries(model.params).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<div class="actions"><button type="submit" id="oidc-logout" autofocus>${t("pages:layout.logOut")}</button></div>
</form>`,
  });
}

export function loggedOutPage(translator: Translator): SafeHtml {
  const { t } = translator;
  return layout({
    translator,
    title: t("pages:loggedOut.title"),
    narrow: true,
    body: html`<h1>${t("pages:loggedOut.title")}</h1><p id="oidc-logged-out">${t("pages:loggedOut.text")}</p>
<p><a href="/index.php/login">${t("pages:loggedOut.logInAgain")}</a></p>`,
  });
}
