import type { notifications as source } from "../en/notifications.js";
import type { Messages } from "../types.js";

export const notifications: Messages<typeof source> = {
  "login_flow_granted.subject": "Nuevo dispositivo conectado: {{name}}",
  "login_flow_granted.message":
    "Una aplicación que se llama a sí misma «{{name}}» obtuvo acceso a su cuenta con Login Flow y recibió una contraseña de aplicación. Si no fue usted, revóquela en su configuración personal y cambie su contraseña.",
  "oauth_client_authorized.subject": "{{name}} fue autorizada a acceder a su cuenta",
  "oauth_client_authorized.message":
    "La aplicación «{{name}}» ahora puede acceder a su cuenta. Si no fue usted, revoque su acceso en su configuración personal y cambie su contraseña.",
  "app_password_created.subject": "Nueva contraseña de aplicación: {{name}}",
  "app_password_created.message":
    "Se creó una contraseña de aplicación llamada «{{name}}» para su cuenta. Si no fue usted, revóquela en su configuración personal y cambie su contraseña.",
  "password_changed.subject": "Su contraseña fue cambiada",
  "password_changed.message":
    "La contraseña de su cuenta fue cambiada. Si no fue usted, contacte de inmediato con su administrador.",
  "second_factor_added.subject": "Segundo factor añadido: {{provider}}",
  "second_factor_added.message":
    "{{provider}} protege ahora su cuenta. Si no fue usted, contacte de inmediato con su administrador.",
  "second_factor_removed.subject": "Segundo factor eliminado: {{provider}}",
  "second_factor_removed.message":
    "{{provider}} ya no protege su cuenta. Si no fue usted, contacte de inmediato con su administrador.",
  "settings.title": "Notificaciones",
  "settings.intro":
    "Keystream le avisa, en sus aplicaciones de escritorio y móviles, cuando cambia quién puede acceder a su cuenta. Los mensajes de su administrador le llegan siempre.",
  "settings.legend": "Avisarme cuando",
  "settings.switch.login_flow": "un dispositivo o una aplicación se conecte con Login Flow",
  "settings.switch.oauth_client": "una aplicación sea autorizada a acceder a mi cuenta",
  "settings.switch.app_password": "se cree una contraseña de aplicación",
  "settings.switch.password": "se cambie mi contraseña",
  "settings.switch.second_factor": "se añada o elimine un segundo factor",
  "settings.save": "Guardar",
  "settings.saved": "Su configuración de notificaciones se guardó.",
};
