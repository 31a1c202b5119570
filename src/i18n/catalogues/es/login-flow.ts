import type { loginFlow as source } from "../en/login-flow.js";
import type { Messages } from "../types.js";

export const loginFlow: Messages<typeof source> = {
  loginNote: "«{{name}}» quiere conectarse a tu cuenta. Inicia sesión primero para darle acceso.",
  "grant.title": "Conectar con tu cuenta",
  "grant.client": "La aplicación {{name}} solicita acceso a tu cuenta.",
  "grant.account":
    "Has iniciado sesión como {{user}}. Conceder el acceso crea una contraseña de aplicación para esta aplicación; puedes revocarla en tu configuración personal.",
  "grant.warning":
    "Si no acabas de empezar tú a conectar un dispositivo o una aplicación, puede que alguien intente engañarte para acceder a tus datos: cancela.",
  "grant.allow": "Conceder acceso",
  "grant.cancel": "Cancelar",
  "done.title": "Cuenta conectada",
  "done.text": "{{name}} ya está conectada a tu cuenta. Puedes cerrar esta ventana y volver a la aplicación.",
  "cancelled.title": "Acceso denegado",
  "cancelled.text": "La aplicación no ha recibido acceso a tu cuenta. Puedes cerrar esta ventana.",
  "invalid.title": "Enlace no válido",
  "invalid.text":
    "Este enlace de inicio de sesión no es válido, ha caducado o ya se ha usado. Vuelve a iniciar sesión desde tu aplicación.",
};
