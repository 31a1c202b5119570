import { html, type SafeHtml } from "../html.js";
import { layout } from "./layout.js";
import { type PageUser, userLabel } from "./oauth.js";

/**
 * Login Flow v2's browser pages (issue 13). English for now: the strings move to the `pages`
 * catalogue when i18n lands.
 */

/** The login page's note while a flow waits for the visitor to log in. */
export function loginFlowLoginNote(clientName: string): SafeHtml {
  return html`“${clientName}” wants to connect to your account. Please log in first to grant it access.`;
}

/**
 * The grant page: names the application and the account, and warns against a link someone else
 * sent (whoever started the flow receives the app password: the one way this flow is abused).
 */
export function loginFlowGrantPage(model: { clientName: string; user: PageUser; actionBase: string }): SafeHtml {
  return layout({
    title: "Connect to your account",
    user: model.user,
    body: html`<h1>Connect to your account</h1>
<p id="login-flow-client">The application <strong>${model.clientName}</strong> asks for access to your account.</p>
<p id="login-flow-account">You are logged in as ${userLabel(model.user)}. Granting access creates an app password for this application; you can revoke it in your personal settings.</p>
<p class="error" role="note">If you did not just start connecting a device or application yourself, someone may be trying to trick you into giving them access to your data: cancel.</p>
<form method="post" action="${model.actionBase}/grant" id="login-flow-grant">
<input type="hidden" name="requesttoken" value="${model.user.csrfToken}">
<p><button type="submit" id="grant-access">Grant access</button></p>
</form>
<form method="post" action="${model.actionBase}/cancel" id="login-flow-cancel">
<input type="hidden" name="requesttoken" value="${model.user.csrfToken}">
<p><button type="submit" class="danger" id="cancel-access">Cancel</button></p>
</form>`,
  });
}

export function loginFlowDonePage(model: { clientName: string; user: PageUser }): SafeHtml {
  return layout({
    title: "Account connected",
    user: model.user,
    body: html`<h1>Account connected</h1>
<p id="login-flow-done"><strong>${model.clientName}</strong> is now connected to your account. You can close this window and return to the application.</p>`,
  });
}

export function loginFlowCancelledPage(user: PageUser): SafeHtml {
  return layout({
    title: "Access denied",
    user,
    body: html`<h1>Access denied</h1>
<p id="login-flow-cancelled">The application was not given access to your account. You can close this window.</p>`,
  });
}

export function loginFlowInvalidPage(user?: PageUser): SafeHtml {
  return layout({
    title: "Link not valid",
    user,
    body: html`<h1>Link not valid</h1>
<p id="login-flow-invalid">This login link is not valid, or has expired or been used. Start the login again from your application.</p>`,
  });
}
