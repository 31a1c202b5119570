import type { passwordConfirmation as source } from "../en/password-confirmation.js";
import type { Messages } from "../types.js";

export const passwordConfirmation: Messages<typeof source> = {
  title: "Confirme su contraseña",
  intro:
    "Esta acción da a un dispositivo o aplicación acceso duradero a su cuenta. Introdujo su contraseña por última vez hace más de {{minutes}} minutos: vuelva a introducirla para continuar.",
  fieldHint: "Introdujo su contraseña por última vez hace más de {{minutes}} minutos: vuelva a introducirla para continuar.",
  password: "Su contraseña",
  confirm: "Confirmar y continuar",
  wrong: "La contraseña no es correcta.",
  throttled: "Demasiados intentos fallidos. Vuelva a intentarlo más tarde.",
};
