import type { pages as source } from "../en/pages.js";
import type { Messages } from "../types.js";

export const pages: Messages<typeof source> = {
  "layout.skipToContent": "Aller au contenu principal",
  "layout.logOut": "Se déconnecter",
  "layout.reference": "Référence pour l’administrateur :",
};
