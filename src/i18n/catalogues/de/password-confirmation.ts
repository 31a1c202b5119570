import type { passwordConfirmation as source } from "../en/password-confirmation.js";
import type { Messages } from "../types.js";

export const passwordConfirmation: Messages<typeof source> = {
  title: "Passwort bestätigen",
  intro:
    "Diese Aktion gibt einem Gerät oder einer Anwendung dauerhaften Zugriff auf Ihr Konto. Sie haben Ihr Passwort zuletzt vor mehr als {{minutes}} Minuten eingegeben: Geben Sie es erneut ein, um fortzufahren.",
  fieldHint:
    "Sie haben Ihr Passwort zuletzt vor mehr als {{minutes}} Minuten eingegeben: Geben Sie es erneut ein, um fortzufahren.",
  password: "Ihr Passwort",
  confirm: "Bestätigen und fortfahren",
  wrong: "Das Passwort ist falsch.",
  throttled: "Zu viele fehlgeschlagene Versuche. Bitte versuchen Sie es später erneut.",
};
