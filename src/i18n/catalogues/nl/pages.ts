import type { pages as source } from "../en/pages.js";
import type { Messages } from "../types.js";

export const pages: Messages<typeof source> = {
  "layout.skipToContent": "Naar de hoofdinhoud",
  "layout.logOut": "Afmelden",
  "layout.reference": "Referentie voor de beheerder:",
};
