import type { secondFactor as source } from "../en/second-factor.js";
import type { Messages } from "../types.js";

export const secondFactor: Messages<typeof source> = {
  "provider.totp": "Aplicación de autenticación (TOTP)",
  "provider.backup_codes": "Códigos de recuperación",
  "provider.webauthn": "Llaves de acceso",
  "challenge.title": "Segundo factor",
  "challenge.intro": "Su cuenta está protegida por un segundo factor. Use uno de ellos para terminar de iniciar sesión.",
  "challenge.totpLabel": "El código de seis cifras que muestra su aplicación de autenticación",
  "challenge.recoveryLabel": "Uno de sus códigos de recuperación",
  "challenge.recoveryHint": "Cada código de recuperación sirve una sola vez.",
  "challenge.submit": "Verificar",
  "challenge.wrong": "El código es incorrecto o ya se usó.",
  "challenge.throttled": "Demasiados intentos fallidos. Vuelva a intentarlo más tarde.",
  "challenge.none":
    "Ninguno de los segundos factores de su cuenta puede usarse aquí. Pida a su administrador que los restablezca.",
  "challenge.cancel": "Cancelar y cerrar sesión",
  "setup.title": "Configurar un segundo factor",
  "setup.intro":
    "Su administrador exige un segundo factor en todas las cuentas. Configure ahora una aplicación de autenticación para terminar de iniciar sesión.",
  "setup.doneTitle": "Segundo factor configurado",
  "setup.done":
    "Su aplicación de autenticación está activada. Abajo están sus códigos de recuperación: guárdelos en un lugar seguro, solo se muestran esta vez.",
  "setup.continue": "Continuar",
  "totp.scan":
    "Escanee este código QR con su aplicación de autenticación (por ejemplo Aegis, FreeOTP o Google Authenticator), o escriba en ella la clave de abajo.",
  "totp.qrLabel": "Código QR de la clave para su aplicación de autenticación",
  "totp.secret": "Clave",
  "totp.codeLabel": "El código que muestra ahora su aplicación, para confirmar",
  "totp.enable": "Activar",
  "totp.wrongCode": "El código no coincide. Compruebe que el reloj de su dispositivo es correcto e introduzca el código actual.",
  "settings.title": "Autenticación en dos pasos",
  "settings.intro":
    "Un segundo factor protege su cuenta aunque alguien conozca su contraseña. Con él, los clientes de escritorio y del móvil inician sesión a través del navegador o con una contraseña de aplicación.",
  "settings.enforced": "Su administrador exige un segundo factor en todas las cuentas.",
  "settings.totp.enabled": "Activada.",
  "settings.totp.off": "Sin configurar.",
  "settings.totp.begin": "Configurar una aplicación de autenticación",
  "settings.totp.cancel": "Cancelar la configuración",
  "settings.totp.disable": "Desactivar la aplicación de autenticación",
  "settings.totp.enabledNotice":
    "La aplicación de autenticación está activada. Genere ahora códigos de recuperación por si pierde el dispositivo.",
  "settings.totp.disabledNotice": "La aplicación de autenticación se desactivó, y con ella sus códigos de recuperación.",
  "settings.recovery.count": "Quedan {{unused}} de {{total}} códigos de recuperación.",
  "settings.recovery.none": "No se han generado códigos de recuperación.",
  "settings.recovery.needFactor": "Configure primero una aplicación de autenticación.",
  "settings.recovery.generate": "Generar nuevos códigos de recuperación",
  "settings.recovery.generated":
    "Sus nuevos códigos de recuperación. Guárdelos en un lugar seguro: solo se muestran esta vez y cada uno sirve una vez. Sus códigos anteriores ya no funcionan.",
  "settings.recovery.download": "Descargarlos como archivo de texto",
  "settings.recovery.fileIntro": "Códigos de recuperación de Keystream de {{uid}} (cada uno sirve una vez)",
  "admin.column": "Segundos factores",
  "admin.none": "Ninguno",
  "admin.remove": "Quitar",
  "admin.removeNamed": "Quitar {{provider}} de {{uid}}",
  "admin.removed": "{{provider}} quitado para {{uid}}.",
  "admin.noSuch": "El usuario no tiene ese segundo factor.",
};
