import type { loginFlow as source } from "../en/login-flow.js";
import type { Messages } from "../types.js";

export const loginFlow: Messages<typeof source> = {
  loginNote:
    "Un’applicazione che si presenta come «{{name}}» vuole collegarsi al tuo account. Accedi prima per concederle l’accesso.",
  "grant.title": "Collegamento al tuo account",
  "grant.request": "Un’applicazione chiede di accedere al tuo account.",
  "grant.reportedName": "Nome indicato dall’applicazione",
  "grant.startedFrom": "Avviata dall’indirizzo",
  "grant.startedAt": "Avviata",
  "grant.claim":
    "Il nome è la descrizione che l’applicazione dà di sé: Keystream non può verificarlo. L’indirizzo e l’ora sono ciò che Keystream ha visto: concedi l’accesso solo se corrispondono al dispositivo che stai collegando.",
  "grant.account":
    "Hai effettuato l’accesso come {{user}}. Concedere l’accesso crea una password per questa applicazione; puoi revocarla nelle tue impostazioni personali.",
  "grant.warning":
    "Se non hai appena iniziato tu a collegare un dispositivo o un’applicazione, qualcuno potrebbe cercare di ingannarti per accedere ai tuoi dati: annulla.",
  "grant.allow": "Concedi l’accesso",
  "grant.cancel": "Annulla",
  "done.title": "Account collegato",
  "done.text":
    "L’applicazione che si presenta come {{name}} è ora collegata al tuo account. Puoi chiudere questa finestra e tornare all’applicazione.",
  "cancelled.title": "Accesso negato",
  "cancelled.text": "L’applicazione non ha ricevuto l’accesso al tuo account. Puoi chiudere questa finestra.",
  "invalid.title": "Collegamento non valido",
  "invalid.text":
    "Questo collegamento di accesso non è valido, è scaduto o è già stato usato. Ricomincia l’accesso dalla tua applicazione.",
};
