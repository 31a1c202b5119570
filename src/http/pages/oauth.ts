import { html, type SafeHtml } from "../html.js";
import { layout } from "./layout.js";

export interface PageUser {
  uid: string;
  displayName: string;
  csrfToken: string;
}

/** research A.2.5: the display name in bold (uid as tooltip) when it differs from the uid, else the uid. */
export function userLabel(user: { uid: string; displayName: string }): SafeHtml {
  return user.displayName !== user.uid
    ? html`<span title="${user.uid}"><strong>${user.displayName}</strong></span>`
    : html`<strong>${user.uid}</strong>`;
}

/** research A.2.3: the consent page. The form posts to the same URL (query included) with the CSRF token. */
export function consentPage(model: { clientName: string; user: PageUser; logoutUrl: string }): SafeHtml {
  return layout({
    title: "Authorize",
    user: model.user,
    body: html`<h1>Authorize</h1>
<p><strong>The “${model.clientName}“ application would like permission to access your account</strong></p>
<p id="oauth-current-user">You are logged in as ${userLabel(model.user)}.</p>
<p>The application will gain access to your username and will be allowed to manage files, folders and shares.</p>
<form method="post" action="" id="oauth-consent">
<input type="hidden" name="requesttoken" value="${model.user.csrfToken}">
<p><button type="submit" id="authorize" autofocus>Authorize</button></p>
</form>
<p><a href="${model.logoutUrl}" id="oauth-switch-user">Switch users to continue</a></p>`,
  });
}

/** research A.2.2: "Request not valid". */
export function authorizeErrorPage(clientName: string | null, user?: PageUser, reference?: string): SafeHtml {
  const text =
    clientName === null
      ? "This request is not valid. Please contact the administrator if this error persists."
      : `This request is not valid. Please contact the administrator of “${clientName}” if this error persists.`;
  return layout({
    title: "Request not valid",
    user,
    reference,
    body: html`<h1>Request not valid</h1><p id="oauth-error">${text}</p>`,
  });
}

/** research A.2.5: the application asked for another user than the one logged in. */
export function switchUserPage(user: PageUser, requestedUser: string, logoutUrl: string): SafeHtml {
  return layout({
    title: "Switch user",
    user,
    body: html`<h1>Switch user</h1>
<p>You are logged in as ${userLabel(user)} but the application requested access for user <strong>${requestedUser}</strong>.</p>
<p><a href="${logoutUrl}" id="oauth-switch-user">Switch users to continue</a></p>`,
  });
}

/** research A.2.6. */
export function authorizationSuccessfulPage(user: PageUser): SafeHtml {
  return layout({
    title: "Authorization successful",
    user,
    body: html`<h1>Authorization successful</h1>
<p><strong id="oauth-success">The application was authorized successfully. You can now close this window.</strong></p>`,
  });
}
