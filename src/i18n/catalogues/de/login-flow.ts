import type { loginFlow as source } from "../en/login-flow.js";
import type { Messages } from "../types.js";

export const loginFlow: Messages<typeof source> = {
  loginNote:
    "Eine Anwendung, die sich „{{name}}“ nennt, möchte sich mit Ihrem Konto verbinden. Bitte melden Sie sich zuerst an, um den Zugriff zu erlauben.",
  "grant.title": "Mit Ihrem Konto verbinden",
  "grant.request": "Eine Anwendung bittet um Zugriff auf Ihr Konto.",
  "grant.reportedName": "Name, wie die Anwendung ihn angibt",
  "grant.startedFrom": "Gestartet von der Adresse",
  "grant.startedAt": "Gestartet",
  "grant.claim":
    "Den Namen gibt die Anwendung selbst an: Keystream kann ihn nicht prüfen. Adresse und Zeit hat Keystream selbst gesehen: Erlauben Sie den Zugriff nur, wenn sie zu dem Gerät passen, das Sie gerade verbinden.",
  "grant.account":
    "Sie sind als {{user}} angemeldet. Wenn Sie den Zugriff erlauben, wird für diese Anwendung ein App-Passwort erstellt; Sie können es in Ihren persönlichen Einstellungen widerrufen.",
  "grant.warning":
    "Wenn Sie nicht gerade selbst ein Gerät oder eine Anwendung verbinden, versucht vielleicht jemand, sich Zugriff auf Ihre Daten zu erschleichen: Brechen Sie ab.",
  "grant.allow": "Zugriff erlauben",
  "grant.cancel": "Abbrechen",
  "done.title": "Konto verbunden",
  "done.text":
    "Die Anwendung, die sich {{name}} nennt, ist jetzt mit Ihrem Konto verbunden. Sie können dieses Fenster schließen und zur Anwendung zurückkehren.",
  "cancelled.title": "Zugriff verweigert",
  "cancelled.text": "Die Anwendung hat keinen Zugriff auf Ihr Konto erhalten. Sie können dieses Fenster schließen.",
  "invalid.title": "Link ungültig",
  "invalid.text":
    "Dieser Anmeldelink ist ungültig, abgelaufen oder wurde schon benutzt. Starten Sie die Anmeldung in Ihrer Anwendung erneut.",
};
