import { html, type SafeHtml } from "../html.js";
import { layout } from "./layout.js";

export interface LoginPageModel {
  csrfToken: string;
  redirectUrl: string | undefined;
  user: string;
  error?: string | undefined;
  /** Context from the page that sent the visitor here (e.g. which application asks for access). */
  notes: SafeHtml[];
}

export function loginPage(model: LoginPageModel): SafeHtml {
  return layout({
    title: "Log in",
    body: html`<h1>Log in</h1>
${model.notes.map((note) => html`<p class="notice">${note}</p>`)}
${model.error ? html`<p class="error" id="login-error" role="alert">${model.error}</p>` : ""}
<form method="post" action="/index.php/login" id="login-form">
<input type="hidden" name="requesttoken" value="${model.csrfToken}">
${model.redirectUrl ? html`<input type="hidden" name="redirect_url" value="${model.redirectUrl}">` : ""}
<label for="user">Username</label>
<input type="text" id="user" name="user" value="${model.user}" autocomplete="username" autocapitalize="none" required autofocus>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<p><button type="submit" id="submit">Log in</button></p>
</form>`,
  });
}
