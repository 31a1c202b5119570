import type { pages as source } from "../en/pages.js";
import type { Messages } from "../types.js";

export const pages: Messages<typeof source> = {
  "layout.skipToContent": "Saltar al contenido principal",
  "layout.logOut": "Cerrar sesión",
  "layout.reference": "Referencia para el administrador:",
};
