import type { Translator } from "../../../i18n/index.js";
import { html, type SafeHtml } from "../../html.js";

/** A button that copies the text of the element `targetId` (the console's pages load http/settings-copy-script.ts). */
export function copyButton(targetId: string, t: Translator["t"]): SafeHtml {
  return html`<button type="button" data-copy="${targetId}" data-copied="${t("settings:copy.copied")}">${t("settings:copy.copy")}</button>`;
}
