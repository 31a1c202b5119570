import type { clientErrors as source } from "../en/client-errors.js";
import type { Messages } from "../types.js";

export const clientErrors: Messages<typeof source> = {
  clientIdTooShort: "El identificador de cliente debe tener al menos {{min}} caracteres.",
  secretTooShort: "El secreto de cliente debe tener al menos {{min}} caracteres.",
  invalidRedirect: "La dirección de redirección no es válida.",
  redirectWithFragment: "La dirección de redirección no debe contener un fragmento (#).",
  redirectWithUserinfo: "La dirección de redirección no debe contener un nombre de usuario ni una contraseña (user:password@).",
  allowSubdomainsNotBoolean: "Indique true o false para allowed-sub-domains.",
  trustedNotBoolean: "Indique true o false para trusted.",
  resourceServerNotBoolean: "Indique true o false para resource-server.",
  accountAccessNotBoolean: "Indique true o false para account-access.",
  unknownScope: "Ámbito desconocido {{scope}}; los ámbitos son: {{known}}.",
  invalidPostLogoutRedirect: "La dirección de redirección tras cerrar sesión no es válida.",
  invalidBackchannelLogout:
    "La URL de cierre de sesión por canal trasero no es válida: debe ser una URL http o https absoluta sin fragmento (#).",
  backchannelLogoutNotHttps:
    "La URL de cierre de sesión por canal trasero debe usar https (http solo con una dirección de bucle local: localhost, 127.0.0.1, [::1]).",
  localhostTrusted: "Una aplicación en localhost no puede ser de confianza.",
  nameTaken: "Ya existe una aplicación llamada «{{name}}».",
  clientIdTaken: "El identificador de cliente {{id}} ya está en uso.",
  noSuchName: "No existe ninguna aplicación llamada «{{name}}».",
  invalidKey: "«{{key}}» no es un campo válido.",
  unknownClientId: "El identificador de cliente {{id}} es desconocido.",
  emptyName: "El nombre no puede estar vacío.",
  nameTooLong: "El nombre debe tener como máximo {{max}} caracteres.",
  emptyRedirect: "La dirección de redirección no puede estar vacía.",
  invalidRedirectUrl: "La dirección de redirección debe ser una URL válida.",
  nameExists: "Ya existe una aplicación llamada «{{name}}».",
  noSuchClient: "Esta aplicación no existe (o ya no existe).",
};
