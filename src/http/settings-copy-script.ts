import type { FastifyInstance } from "fastify";
import type { Translator } from "../i18n/index.js";
import { html, type SafeHtml } from "./html.js";

export const COPY_SCRIPT_PATH = "/index.php/settings/js/copy-secret.js";

/**
 * The settings pages' one script: a "Copy" button copies the text of the element it names
 * (a secret shown once). A file of its own, because the pages' CSP is `script-src 'self'`
 * (no inline script); without JavaScript the secret can still be selected and copied by hand.
 */
const COPY_SCRIPT = `"use strict";
document.addEventListener("click", function (event) {
  var button = event.target instanceof Element ? event.target.closest("button[data-copy]") : null;
  if (!button) return;
  var source = document.getElementById(button.getAttribute("data-copy"));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent || "").then(function () {
    button.textContent = button.getAttribute("data-copied") || button.textContent;
  });
});
`;

/** A button that copies the text of the element `targetId` (settings pages load the script). */
export function copyButton(targetId: string, t: Translator["t"]): SafeHtml {
  return html`<button type="button" data-copy="${targetId}" data-copied="${t("settings:copy.copied")}">${t("settings:copy.copy")}</button>`;
}

export function copyScriptRoute(app: FastifyInstance): void {
  app.get(COPY_SCRIPT_PATH, async (_request, reply) =>
    reply
      .header("content-type", "text/javascript; charset=utf-8")
      .header("x-content-type-options", "nosniff")
      .header("cache-control", "public, max-age=3600")
      .send(COPY_SCRIPT),
  );
}
