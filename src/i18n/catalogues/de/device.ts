import type { device as source } from "../en/device.js";
import type { Messages } from "../types.js";

export const device: Messages<typeof source> = {
  loginNote: "Melden Sie sich an, um ein Gerät oder eine Kommandozeilen-Anwendung mit Ihrem Konto zu verbinden.",
  "entry.title": "Ein Gerät verbinden",
  "entry.text": "Geben Sie den Code ein, den Ihr Gerät oder Ihre Kommandozeilen-Anwendung anzeigt.",
  "entry.label": "Code",
  "entry.hint": "Acht Buchstaben, etwa WDJB-MJHT; der Bindestrich ist optional.",
  "entry.continue": "Weiter",
  "entry.malformed": "Das ist kein gültiger Code: Ein Code hat acht Buchstaben, etwa WDJB-MJHT.",
  "entry.unknown":
    "Dieser Code ist nicht gültig, abgelaufen oder bereits verwendet. Prüfen Sie ihn oder beginnen Sie auf Ihrem Gerät von vorn.",
  "entry.throttled": "Es wurden zu viele falsche Codes eingegeben. Bitte warten Sie eine Weile, bevor Sie es erneut versuchen.",
  "confirm.title": "Ein Gerät autorisieren",
  "confirm.question": "Die Anwendung „{{name}}“ auf einem Gerät bittet um Zugriff auf Ihr Konto",
  "confirm.code": "Fahren Sie nur fort, wenn Ihr Gerät diesen Code anzeigt: {{code}}",
  "confirm.warning":
    "Wenn Sie nicht gerade selbst die Anmeldung auf einem Gerät begonnen haben, versucht vielleicht jemand, sich Zugriff auf Ihr Konto zu erschleichen: Lehnen Sie ab.",
  "approved.title": "Gerät verbunden",
  "approved.text": "Die Anwendung „{{name}}“ hat jetzt Zugriff auf Ihr Konto. Sie können zu Ihrem Gerät zurückkehren.",
  "denied.title": "Zugriff verweigert",
  "denied.text": "Das Gerät hat keinen Zugriff auf Ihr Konto erhalten. Sie können dieses Fenster schließen.",
};
