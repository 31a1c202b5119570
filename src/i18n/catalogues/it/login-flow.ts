import type { loginFlow as source } from "../en/login-flow.js";
import type { Messages } from "../types.js";

export const loginFlow: Messages<typeof source> = {
  loginNote: "«{{name}}» vuole collegarsi al tuo account. Accedi prima per concedergli l’accesso.",
  "grant.title": "Collegamento al tuo account",
  "grant.client": "L’applicazione {{name}} chiede di accedere al tuo account.",
  "grant.account":
    "Hai effettuato l’accesso come {{user}}. Concedere l’accesso crea una password per questa applicazione; puoi revocarla nelle tue impostazioni personali.",
  "grant.warning":
    "Se non hai appena iniziato tu a collegare un dispositivo o un’applicazione, qualcuno potrebbe cercare di ingannarti per accedere ai tuoi dati: annulla.",
  "grant.allow": "Concedi l’accesso",
  "grant.cancel": "Annulla",
  "done.title": "Account collegato",
  "done.text": "{{name}} è ora collegato al tuo account. Puoi chiudere questa finestra e tornare all’applicazione.",
  "cancelled.title": "Accesso negato",
  "cancelled.text": "L’applicazione non ha ricevuto l’accesso al tuo account. Puoi chiudere questa finestra.",
  "invalid.title": "Collegamento non valido",
  "invalid.text":
    "Questo collegamento di accesso non è valido, è scaduto o è già stato usato. Ricomincia l’accesso dalla tua applicazione.",
};
