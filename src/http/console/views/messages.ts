import { html, type SafeHtml } from "../../html.js";

/**
 * A form's outcome at the top of its section: a notice when it went through, an error when refused;
 * `role` makes assistive technology read it out at once.
 */
export function outcomeParagraph(ok: boolean, text: string, id?: string, role?: "alert" | "status"): SafeHtml {
  const kind = ok ? "notice" : "error";
  return html`<p class="${kind}"${id === undefined ? "" : html` id="${id}"`}${role === undefined ? "" : html` role="${role}"`}>${text}</p>`;
}
