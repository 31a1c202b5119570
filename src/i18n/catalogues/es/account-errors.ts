import type { accountErrors as source } from "../en/account-errors.js";
import type { Messages } from "../types.js";

export const accountErrors: Messages<typeof source> = {
  invalidDisplayName: "El nombre completo debe tener de 1 a 255 caracteres.",
  invalidEmail: "«{{email}}» no es una dirección de correo electrónico válida.",
  emailTaken: "La dirección de correo electrónico «{{email}}» ya la usa otra cuenta.",
  invalidUid:
    "Nombre de usuario «{{uid}}» no válido: solo se permiten letras, dígitos, espacios y _.@-' (de 1 a 64 caracteres, sin espacios al principio ni al final).",
  uidTaken: "El usuario «{{uid}}» ya existe.",
  uidOfDeletedUser:
    'El nombre de usuario «{{uid}}» pertenecía a una cuenta eliminada: las aplicaciones en las que esa cuenta inició sesión tomarían una cuenta nueva con ese nombre por la antigua. Para dar el nombre a una cuenta nueva de forma deliberada: ./occ user:add --reuse-deleted-name "{{uid}}"',
  noSuchUser: "El usuario «{{uid}}» no existe.",
  ownAccount: "Aquí no puedes desactivar ni eliminar tu propia cuenta.",
  ownAdminRole: "Aquí no puedes quitarte tu propio rol de administrador; puede hacerlo otro administrador.",
  ownSignIns: "Aquí no puedes terminar tus propias sesiones y tokens; usa tu configuración personal.",
  passwordTooShort: "La contraseña debe tener al menos {{min}} caracteres.",
  passwordTooLong: "La contraseña debe tener como máximo {{max}} caracteres.",
  avatarTooLarge: "Una foto de perfil debe ser una imagen PNG o JPEG de {{kib}} KiB como máximo.",
  avatarNotImage: "Una foto de perfil debe ser una imagen PNG o JPEG.",
  invalidAppPasswordName: "El nombre de una contraseña de aplicación debe tener de 1 a 255 caracteres.",
  unsupportedLanguage: "«{{value}}» no es un idioma que Keystream ofrezca: en, de, fr, es, it, nl.",
  invalidTimeZone: "«{{value}}» no es una zona horaria (un nombre IANA como Europe/Madrid).",
  preferenceTooLong: "Un valor de preferencia tiene como máximo 4000 caracteres.",
  invalidPreferenceName: "Nombre de {{kind}} «{{name}}» no válido.",
};
