import type { device as source } from "../en/device.js";
import type { Messages } from "../types.js";

export const device: Messages<typeof source> = {
  loginNote: "Inicie sesión para conectar un dispositivo o una aplicación de línea de comandos a su cuenta.",
  "entry.title": "Conectar un dispositivo",
  "entry.text": "Introduzca el código que muestra su dispositivo o su aplicación de línea de comandos.",
  "entry.label": "Código",
  "entry.hint": "Ocho letras, por ejemplo WDJB-MJHT; el guion es opcional.",
  "entry.continue": "Continuar",
  "entry.malformed": "Este no es un código válido: un código tiene ocho letras, por ejemplo WDJB-MJHT.",
  "entry.unknown": "Este código no es válido, ha caducado o ya se ha usado. Compruébelo o vuelva a empezar en su dispositivo.",
  "entry.throttled": "Se han introducido demasiados códigos erróneos. Espere un rato antes de volver a intentarlo.",
  "confirm.title": "Autorizar un dispositivo",
  "confirm.question": "La aplicación «{{name}}» de un dispositivo solicita permiso para acceder a su cuenta",
  "confirm.code": "Continúe solo si su dispositivo muestra este código: {{code}}",
  "confirm.warning":
    "Si no acaba de iniciar usted mismo una sesión en un dispositivo, puede que alguien intente engañarle para obtener acceso a su cuenta: deniegue.",
  "approved.title": "Dispositivo conectado",
  "approved.text": "La aplicación «{{name}}» tiene ahora acceso a su cuenta. Puede volver a su dispositivo.",
  "denied.title": "Acceso denegado",
  "denied.text": "El dispositivo no ha obtenido acceso a su cuenta. Puede cerrar esta ventana.",
};
