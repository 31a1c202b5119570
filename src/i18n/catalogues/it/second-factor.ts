import type { secondFactor as source } from "../en/second-factor.js";
import type { Messages } from "../types.js";

export const secondFactor: Messages<typeof source> = {
  "provider.totp": "App di autenticazione (TOTP)",
  "provider.backup_codes": "Codici di recupero",
  "provider.webauthn": "Passkey",
  "challenge.title": "Secondo fattore",
  "challenge.intro": "Il tuo account è protetto da un secondo fattore. Usane uno per completare l'accesso.",
  "challenge.totpLabel": "Il codice di sei cifre mostrato dalla tua app di autenticazione",
  "challenge.recoveryLabel": "Uno dei tuoi codici di recupero",
  "challenge.recoveryHint": "Ogni codice di recupero funziona una sola volta.",
  "challenge.submit": "Verifica",
  "challenge.wrong": "Il codice è errato o è già stato usato.",
  "challenge.throttled": "Troppi tentativi falliti. Riprova più tardi.",
  "challenge.none":
    "Nessuno dei secondi fattori del tuo account può essere usato qui. Chiedi all'amministratore di reimpostarli.",
  "challenge.cancel": "Annulla ed esci",
  "setup.title": "Configura un secondo fattore",
  "setup.intro":
    "L'amministratore richiede un secondo fattore per ogni account. Configura ora un'app di autenticazione per completare l'accesso.",
  "setup.doneTitle": "Secondo fattore configurato",
  "setup.done":
    "La tua app di autenticazione è attiva. Qui sotto trovi i codici di recupero: conservali in un luogo sicuro, vengono mostrati solo questa volta.",
  "setup.continue": "Continua",
  "totp.scan":
    "Scansiona questo codice QR con la tua app di autenticazione (per esempio Aegis, FreeOTP o Google Authenticator), oppure inserisci a mano la chiave qui sotto.",
  "totp.qrLabel": "Codice QR della chiave per la tua app di autenticazione",
  "totp.secret": "Chiave",
  "totp.codeLabel": "Il codice che l'app mostra ora, per confermare",
  "totp.enable": "Attiva",
  "totp.wrongCode":
    "Il codice non corrisponde. Controlla che l'orologio del dispositivo sia corretto e inserisci il codice attuale.",
  "settings.title": "Autenticazione a due fattori",
  "settings.intro":
    "Un secondo fattore protegge il tuo account anche se qualcuno conosce la tua password. Con esso, i client desktop e per telefono accedono tramite il browser o con una password per app.",
  "settings.enforced": "L'amministratore richiede un secondo fattore per ogni account.",
  "settings.totp.enabled": "Attiva.",
  "settings.totp.off": "Non configurata.",
  "settings.totp.begin": "Configura un'app di autenticazione",
  "settings.totp.cancel": "Annulla la configurazione",
  "settings.totp.disable": "Disattiva l'app di autenticazione",
  "settings.totp.enabledNotice":
    "L'app di autenticazione è attiva. Genera ora i codici di recupero, nel caso perdessi il dispositivo.",
  "settings.totp.disabledNotice": "L'app di autenticazione è stata disattivata, e con essa i tuoi codici di recupero.",
  "settings.recovery.count": "Restano {{unused}} codici di recupero su {{total}}.",
  "settings.recovery.none": "Nessun codice di recupero generato.",
  "settings.recovery.needFactor": "Configura prima un'app di autenticazione.",
  "settings.recovery.generate": "Genera nuovi codici di recupero",
  "settings.recovery.generated":
    "I tuoi nuovi codici di recupero. Conservali in un luogo sicuro: vengono mostrati solo questa volta e ognuno funziona una volta. I codici precedenti non funzionano più.",
  "settings.recovery.download": "Scaricali come file di testo",
  "settings.recovery.fileIntro": "Codici di recupero Keystream di {{uid}} (ognuno funziona una volta)",
  "admin.column": "Secondi fattori",
  "admin.none": "Nessuno",
  "admin.remove": "Rimuovi",
  "admin.removeNamed": "Rimuovi {{provider}} di {{uid}}",
  "admin.removed": "{{provider}} rimosso per {{uid}}.",
  "admin.noSuch": "L'utente non ha questo secondo fattore.",
};
