import { html, type SafeHtml } from "../html.js";
import { PASSKEY_SCRIPT_PATH, WEBAUTHN_LIBRARY_PATH } from "../passkey-scripts.js";

/** The two script tags a page with a passkey ceremony ends with (the scripts: http/passkey-scripts.ts). */
export function passkeyScripts(): SafeHtml {
  return html`<script src="${WEBAUTHN_LIBRARY_PATH}"></script><script src="${PASSKEY_SCRIPT_PATH}"></script>`;
}
