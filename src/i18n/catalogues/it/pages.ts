import type { pages as source } from "../en/pages.js";
import type { Messages } from "../types.js";

export const pages: Messages<typeof source> = {
  "layout.skipToContent": "Vai al contenuto principale",
  "layout.logOut": "Esci",
  "layout.reference": "Riferimento per l’amministratore:",
};
