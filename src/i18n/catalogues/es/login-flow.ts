import type { loginFlow as source } from "../en/login-flow.js";
import type { Messages } from "../types.js";

export const loginFlow: Messages<typeof source> = {
  loginNote:
    "Una aplicación que se presenta como «{{name}}» quiere conectarse a tu cuenta. Inicia sesión primero para darle acceso.",
  "grant.title": "Conectar con tu cuenta",
  "grant.request": "Una aplicación solicita acceso a tu cuenta.",
  "grant.reportedName": "Nombre que indica la aplicación",
  "grant.startedFrom": "Iniciada desde la dirección",
  "grant.startedAt": "Iniciada",
  "grant.claim":
    "El nombre es la descripción que la aplicación da de sí misma: Keystream no puede comprobarlo. La dirección y la hora son lo que Keystream vio: concede el acceso solo si coinciden con el dispositivo que estás conectando.",
  "grant.account":
    "Has iniciado sesión como {{user}}. Conceder el acceso crea una contraseña de aplicación para esta aplicación; puedes revocarla en tu configuración personal.",
  "grant.warning":
    "Si no acabas de empezar tú a conectar un dispositivo o una aplicación, puede que alguien intente engañarte para acceder a tus datos: cancela.",
  "grant.allow": "Conceder acceso",
  "grant.cancel": "Cancelar",
  "done.title": "Cuenta conectada",
  "done.text":
    "La aplicación que se presenta como {{name}} ya está conectada a tu cuenta. Puedes cerrar esta ventana y volver a la aplicación.",
  "cancelled.title": "Acceso denegado",
  "cancelled.text": "La aplicación no ha recibido acceso a tu cuenta. Puedes cerrar esta ventana.",
  "invalid.title": "Enlace no válido",
  "invalid.text":
    "Este enlace de inicio de sesión no es válido, ha caducado o ya se ha usado. Vuelve a iniciar sesión desde tu aplicación.",
};
