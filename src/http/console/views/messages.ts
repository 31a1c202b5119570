import { html, type SafeHtml } from "../../html.js";

/** A form's outcome at the top of its section: a notice when it went through, an error when refused. */
export function outcomeParagraph(ok: boolean, text: string, id?: string): SafeHtml {
  const kind = ok ? "notice" : "error";
  return id === undefined ? html`<p class="${kind}">${text}</p>` : html`<p class="${kind}" id="${id}">${text}</p>`;
}
