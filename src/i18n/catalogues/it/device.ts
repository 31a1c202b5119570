import type { device as source } from "../en/device.js";
import type { Messages } from "../types.js";

export const device: Messages<typeof source> = {
  loginNote: "Accedi per collegare un dispositivo o un’applicazione a riga di comando al tuo account.",
  "entry.title": "Collega un dispositivo",
  "entry.text": "Inserisci il codice mostrato dal tuo dispositivo o dalla tua applicazione a riga di comando.",
  "entry.label": "Codice",
  "entry.hint": "Otto lettere, per esempio WDJB-MJHT; il trattino è facoltativo.",
  "entry.continue": "Continua",
  "entry.malformed": "Questo non è un codice valido: un codice ha otto lettere, per esempio WDJB-MJHT.",
  "entry.unknown":
    "Questo codice non è valido, è scaduto o è già stato usato. Controllalo, oppure ricomincia dal tuo dispositivo.",
  "entry.throttled": "Sono stati inseriti troppi codici errati. Attendi un po’ prima di riprovare.",
  "confirm.title": "Autorizza un dispositivo",
  "confirm.question": "L’applicazione «{{name}}» su un dispositivo chiede il permesso di accedere al tuo account",
  "confirm.code": "Continua solo se il tuo dispositivo mostra questo codice: {{code}}",
  "confirm.warning":
    "Se non hai appena avviato tu stesso l’accesso su un dispositivo, qualcuno potrebbe cercare di ingannarti per ottenere l’accesso al tuo account: nega.",
  "approved.title": "Dispositivo collegato",
  "approved.text": "L’applicazione «{{name}}» ora ha accesso al tuo account. Puoi tornare al tuo dispositivo.",
  "denied.title": "Accesso negato",
  "denied.text": "Il dispositivo non ha ottenuto l’accesso al tuo account. Puoi chiudere questa finestra.",
};
