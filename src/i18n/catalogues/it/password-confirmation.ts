import type { passwordConfirmation as source } from "../en/password-confirmation.js";
import type { Messages } from "../types.js";

export const passwordConfirmation: Messages<typeof source> = {
  title: "Conferma la tua password",
  intro:
    "Questa azione dà a un dispositivo o a un'applicazione un accesso duraturo al tuo account. Hai inserito la password l'ultima volta più di {{minutes}} minuti fa: inseriscila di nuovo per continuare.",
  fieldHint: "Hai inserito la password l'ultima volta più di {{minutes}} minuti fa: inseriscila di nuovo per continuare.",
  password: "La tua password",
  confirm: "Conferma e continua",
  wrong: "La password è errata.",
  throttled: "Troppi tentativi non riusciti. Riprova più tardi.",
};
