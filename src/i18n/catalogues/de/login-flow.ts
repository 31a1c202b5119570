import type { loginFlow as source } from "../en/login-flow.js";
import type { Messages } from "../types.js";

export const loginFlow: Messages<typeof source> = {
  loginNote: "„{{name}}“ möchte sich mit deinem Konto verbinden. Bitte melde dich zuerst an, um den Zugriff zu erlauben.",
  "grant.title": "Mit deinem Konto verbinden",
  "grant.client": "Die Anwendung {{name}} bittet um Zugriff auf dein Konto.",
  "grant.account":
    "Du bist als {{user}} angemeldet. Wenn du den Zugriff erlaubst, wird für diese Anwendung ein App-Passwort erstellt; du kannst es in deinen persönlichen Einstellungen widerrufen.",
  "grant.warning":
    "Wenn du nicht gerade selbst ein Gerät oder eine Anwendung verbindest, versucht vielleicht jemand, sich Zugriff auf deine Daten zu erschleichen: brich ab.",
  "grant.allow": "Zugriff erlauben",
  "grant.cancel": "Abbrechen",
  "done.title": "Konto verbunden",
  "done.text":
    "{{name}} ist jetzt mit deinem Konto verbunden. Du kannst dieses Fenster schließen und zur Anwendung zurückkehren.",
  "cancelled.title": "Zugriff verweigert",
  "cancelled.text": "Die Anwendung hat keinen Zugriff auf dein Konto erhalten. Du kannst dieses Fenster schließen.",
  "invalid.title": "Link ungültig",
  "invalid.text":
    "Dieser Anmeldelink ist ungültig, abgelaufen oder wurde schon benutzt. Starte die Anmeldung in deiner Anwendung erneut.",
};
