import { html, type SafeHtml } from "../html.js";
import { layout } from "./layout.js";

/**
 * RP-Initiated Logout 1.0 §2: "the OP SHOULD ask the End-User whether to log out" when the request
 * does not prove the logged-in user asked for it. The form posts the checked parameters back.
 */
export function endSessionConfirmPage(model: {
  action: string;
  csrfToken: string;
  params: Record<string, string>;
  clientName: string | undefined;
  user: { displayName: string; csrfToken: string };
}): SafeHtml {
  return layout({
    title: "Log out",
    user: model.user,
    body: html`<h1>Log out</h1>
<p id="oidc-logout-question">${
      model.clientName === undefined
        ? "Do you want to log out of Keystream?"
        : `“${model.clientName}” asks you to log out of Keystream. Do you want to log out?`
    }</p>
<form method="post" action="${model.action}" id="oidc-logout-confirm">
<input type="hidden" name="requesttoken" value="${model.csrfToken}">
${Object.entries(model.params).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<p><button type="submit" id="oidc-logout" autofocus>Log out</button></p>
</form>`,
  });
}

export function loggedOutPage(): SafeHtml {
  return layout({
    title: "Logged out",
    body: html`<h1>Logged out</h1><p id="oidc-logged-out">You have been logged out of Keystream.</p>`,
  });
}
