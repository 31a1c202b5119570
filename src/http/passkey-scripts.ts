import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { html, type SafeHtml } from "./html.js";

/** `@simplewebauthn/browser`'s own bundle (it defines `SimpleWebAuthnBrowser`), served from this origin. */
export const WEBAUTHN_LIBRARY_PATH = "/index.php/js/simplewebauthn-browser.js";
/** The pages' passkey ceremonies (PASSKEY_SCRIPT), on top of the library. */
export const PASSKEY_SCRIPT_PATH = "/index.php/js/passkeys.js";

/**
 * The library's UMD bundle as the package ships it (`dist/bundle/index.umd.min.js`), read once. The
 * package's `exports` map names no such subpath, so it is found beside the resolved entry point.
 */
function libraryBundle(): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve("@simplewebauthn/browser"));
  while (path.basename(dir) !== "browser" && dir !== path.dirname(dir)) dir = path.dirname(dir);
  return readFileSync(path.join(dir, "dist", "bundle", "index.umd.min.js"), "utf8");
}

/**
 * The ceremonies, wired by data attributes so the pages carry no inline script (their CSP is
 * `script-src 'self'`):
 * - `form[data-passkey-register]`: posts the form (request token, name, password confirmation) to
 *   `data-options`, runs the registration with the options returned, posts the answer to the form's
 *   action, and goes where the answer says;
 * - `button[data-passkey-sign-in]` (and, where the browser has it, conditional mediation on the
 *   login form's user field): options from `data-options`, the assertion posted to `data-verify`;
 * - `button[data-passkey-challenge]`: options from `data-options` (the challenge form's fields),
 *   then the assertion submitted as the challenge form's `code`.
 * Failures are written into the element `data-status` names (a live region).
 */
const PASSKEY_SCRIPT = `"use strict";
(function () {
  var lib = window.SimpleWebAuthnBrowser;
  function status(el, text) {
    var target = document.getElementById(el.getAttribute("data-status"));
    if (target) target.textContent = text || "";
  }
  function post(url, fields) {
    var body = new URLSearchParams();
    fields.forEach(function (value, name) { if (typeof value === "string") body.append(name, value); });
    return fetch(url, { method: "POST", body: body, credentials: "same-origin", headers: { accept: "application/json" } })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (json) {
          if (!response.ok) { var e = new Error(json.error || "refused"); e.answer = json; throw e; }
          return json;
        });
      });
  }
  function go(where) {
    var target = new URL(where, window.location.href);
    var here = window.location;
    if (target.pathname === here.pathname && target.search === here.search) {
      here.hash = target.hash;
      here.reload();
    } else {
      here.assign(target.href);
    }
  }
  function supported(el) {
    if (lib && lib.browserSupportsWebAuthn()) return true;
    status(el, el.getAttribute("data-unsupported"));
    return false;
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-passkey-register")) return;
    event.preventDefault();
    if (!supported(form)) return;
    status(form, form.getAttribute("data-working"));
    var fields = new FormData(form);
    post(form.getAttribute("data-options"), fields)
      .catch(function (e) { e.stage = "options"; throw e; })
      .then(function (options) { return lib.startRegistration({ optionsJSON: options }); })
      .then(function (answer) {
        fields.delete("confirm_password");
        fields.set("response", JSON.stringify(answer));
        return post(form.action, fields);
      })
      .then(function (done) { go(done.redirect); })
      .catch(function (e) {
        status(form, e.stage === "options" ? form.getAttribute("data-confirm-failed") : form.getAttribute("data-failed"));
      });
  });
  function signIn(button, conditional) {
    var fields = new FormData();
    fields.set("requesttoken", button.getAttribute("data-token"));
    var back = button.getAttribute("data-redirect");
    if (back) fields.set("redirect_url", back);
    return post(button.getAttribute("data-options"), fields)
      .then(function (options) { return lib.startAuthentication({ optionsJSON: options, useBrowserAutofill: conditional }); })
      .then(function (answer) {
        fields.set("response", JSON.stringify(answer));
        return post(button.getAttribute("data-verify"), fields);
      })
      .then(function (done) { go(done.redirect); });
  }
  document.addEventListener("click", function (event) {
    var el = event.target instanceof Element ? event.target.closest("button[data-passkey-sign-in], button[data-passkey-challenge]") : null;
    if (!el || !supported(el)) return;
    event.preventDefault();
    status(el, el.getAttribute("data-working"));
    if (el.hasAttribute("data-passkey-sign-in")) {
      signIn(el, false).catch(function (e) {
        if (e && e.name === "AbortError") return;
        status(el, el.getAttribute("data-failed"));
      });
      return;
    }
    var form = el.form;
    post(el.getAttribute("data-options"), new FormData(form))
      .then(function (options) { return lib.startAuthentication({ optionsJSON: options }); })
      .then(function (answer) {
        form.elements.namedItem("code").value = JSON.stringify(answer);
        form.submit();
      })
      .catch(function () { status(el, el.getAttribute("data-failed")); });
  });
  var button = document.querySelector("button[data-passkey-sign-in]");
  if (button && lib && lib.browserSupportsWebAuthn()) {
    lib.browserSupportsWebAuthnAutofill().then(function (autofill) {
      if (!autofill) return;
      signIn(button, true).catch(function (e) {
        if (e && e.name === "AbortError") return;
        status(button, button.getAttribute("data-failed"));
      });
    });
  }
})();
`;

/** The two script tags a page with a passkey ceremony ends with. */
export function passkeyScripts(): SafeHtml {
  return html`<script src="${WEBAUTHN_LIBRARY_PATH}"></script><script src="${PASSKEY_SCRIPT_PATH}"></script>`;
}

export function passkeyScriptRoutes(app: FastifyInstance): void {
  const library = libraryBundle();
  const send = (body: string) => (_request: unknown, reply: import("fastify").FastifyReply) =>
    reply
      .header("content-type", "text/javascript; charset=utf-8")
      .header("x-content-type-options", "nosniff")
      .header("cache-control", "public, max-age=3600")
      .send(body);
  app.get(WEBAUTHN_LIBRARY_PATH, send(library));
  app.get(PASSKEY_SCRIPT_PATH, send(PASSKEY_SCRIPT));
}
