// The pages' passkey ceremonies, wired by data attributes: src/http/passkey-scripts.ts.
"use strict";
(() => {
  var lib = window.SimpleWebAuthnBrowser;
  function status(el, text) {
    var target = document.getElementById(el.getAttribute("data-status"));
    if (target) target.textContent = text || "";
  }
  function post(url, fields) {
    var body = new URLSearchParams();
    fields.forEach((value, name) => {
      if (typeof value === "string") body.append(name, value);
    });
    return fetch(url, { method: "POST", body: body, credentials: "same-origin", headers: { accept: "application/json" } }).then(
      (response) =>
        response
          .json()
          .catch(() => ({}))
          .then((json) => {
            if (!response.ok) {
              const e = new Error(json.error || "refused");
              e.answer = json;
              throw e;
            }
            return json;
          }),
    );
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
    if (lib?.browserSupportsWebAuthn()) return true;
    status(el, el.getAttribute("data-unsupported"));
    return false;
  }
  document.addEventListener("submit", (event) => {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-passkey-register")) return;
    event.preventDefault();
    if (!supported(form)) return;
    status(form, form.getAttribute("data-working"));
    var fields = new FormData(form);
    post(form.getAttribute("data-options"), fields)
      .catch((e) => {
        e.stage = "options";
        throw e;
      })
      .then((options) => lib.startRegistration({ optionsJSON: options }))
      .then((answer) => {
        fields.delete("confirm_password");
        fields.set("response", JSON.stringify(answer));
        return post(form.action, fields);
      })
      .then((done) => {
        go(done.redirect);
      })
      .catch((e) => {
        status(form, e.stage === "options" ? form.getAttribute("data-confirm-failed") : form.getAttribute("data-failed"));
      });
  });
  function signIn(button, conditional) {
    var fields = new FormData();
    fields.set("requesttoken", button.getAttribute("data-token"));
    var back = button.getAttribute("data-redirect");
    if (back) fields.set("redirect_url", back);
    return post(button.getAttribute("data-options"), fields)
      .then((options) => lib.startAuthentication({ optionsJSON: options, useBrowserAutofill: conditional }))
      .then((answer) => {
        fields.set("response", JSON.stringify(answer));
        return post(button.getAttribute("data-verify"), fields);
      })
      .then((done) => {
        go(done.redirect);
      });
  }
  document.addEventListener("click", (event) => {
    var el =
      event.target instanceof Element
        ? event.target.closest("button[data-passkey-sign-in], button[data-passkey-challenge]")
        : null;
    if (!el || !supported(el)) return;
    event.preventDefault();
    status(el, el.getAttribute("data-working"));
    if (el.hasAttribute("data-passkey-sign-in")) {
      signIn(el, false).catch((e) => {
        if (e && e.name === "AbortError") return;
        status(el, el.getAttribute("data-failed"));
      });
      return;
    }
    var form = el.form;
    post(el.getAttribute("data-options"), new FormData(form))
      .then((options) => lib.startAuthentication({ optionsJSON: options }))
      .then((answer) => {
        form.elements.namedItem("code").value = JSON.stringify(answer);
        form.submit();
      })
      .catch(() => {
        status(el, el.getAttribute("data-failed"));
      });
  });
  var button = document.querySelector("button[data-passkey-sign-in]");
  if (button && lib?.browserSupportsWebAuthn()) {
    lib.browserSupportsWebAuthnAutofill().then((autofill) => {
      if (!autofill) return;
      signIn(button, true).catch((e) => {
        if (e && e.name === "AbortError") return;
        status(button, button.getAttribute("data-failed"));
      });
    });
  }
})();
