import type { notifications as source } from "../en/notifications.js";
import type { Messages } from "../types.js";

export const notifications: Messages<typeof source> = {
  "login_flow_granted.subject": "Nuovo dispositivo collegato: {{name}}",
  "login_flow_granted.message":
    "Un’applicazione che si chiama «{{name}}» ha ottenuto l’accesso al tuo account con Login Flow e ha ricevuto una password per app. Se non sei stato tu, revocala nelle impostazioni personali e cambia la tua password.",
  "oauth_client_authorized.subject": "{{name}} è stata autorizzata ad accedere al tuo account",
  "oauth_client_authorized.message":
    "L’applicazione «{{name}}» ora può accedere al tuo account. Se non sei stato tu, revoca il suo accesso nelle impostazioni personali e cambia la tua password.",
  "app_password_created.subject": "Nuova password per app: {{name}}",
  "app_password_created.message":
    "È stata creata una password per app chiamata «{{name}}» per il tuo account. Se non sei stato tu, revocala nelle impostazioni personali e cambia la tua password.",
  "password_changed.subject": "La tua password è stata cambiata",
  "password_changed.message":
    "La password del tuo account è stata cambiata. Se non sei stato tu, contatta subito l’amministratore.",
  "second_factor_added.subject": "Secondo fattore aggiunto: {{provider}}",
  "second_factor_added.message":
    "{{provider}} ora protegge il tuo account. Se non sei stato tu, contatta subito l’amministratore.",
  "second_factor_removed.subject": "Secondo fattore rimosso: {{provider}}",
  "second_factor_removed.message":
    "{{provider}} non protegge più il tuo account. Se non sei stato tu, contatta subito l’amministratore.",
  "settings.title": "Notifiche",
  "settings.intro":
    "Keystream ti avvisa, nelle app desktop e mobili, quando cambia chi può accedere al tuo account. I messaggi dell’amministratore ti raggiungono sempre.",
  "settings.legend": "Avvisami quando",
  "settings.switch.login_flow": "un dispositivo o un’applicazione si collega con Login Flow",
  "settings.switch.oauth_client": "un’applicazione viene autorizzata ad accedere al mio account",
  "settings.switch.app_password": "viene creata una password per app",
  "settings.switch.password": "la mia password viene cambiata",
  "settings.switch.second_factor": "viene aggiunto o rimosso un secondo fattore",
  "settings.save": "Salva",
  "settings.saved": "Le impostazioni delle notifiche sono state salvate.",
};
