import type { pages as source } from "../en/pages.js";
import type { Messages } from "../types.js";

export const pages: Messages<typeof source> = {
  "layout.skipToContent": "Zum Hauptinhalt springen",
  "layout.logOut": "Abmelden",
  "layout.reference": "Referenz für die Administration:",
};
