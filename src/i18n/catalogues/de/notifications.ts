import type { notifications as source } from "../en/notifications.js";
import type { Messages } from "../types.js";

export const notifications: Messages<typeof source> = {
  "login_flow_granted.subject": "Neues Gerät verbunden: {{name}}",
  "login_flow_granted.message":
    "Eine Anwendung, die sich „{{name}}“ nennt, hat über den Login Flow Zugriff auf Ihr Konto und ein App-Passwort erhalten. Falls Sie das nicht waren, widerrufen Sie es in Ihren persönlichen Einstellungen und ändern Sie Ihr Passwort.",
  "oauth_client_authorized.subject": "{{name}} hat Zugriff auf Ihr Konto erhalten",
  "oauth_client_authorized.message":
    "Die Anwendung „{{name}}“ kann jetzt auf Ihr Konto zugreifen. Falls Sie das nicht waren, widerrufen Sie den Zugriff in Ihren persönlichen Einstellungen und ändern Sie Ihr Passwort.",
  "app_password_created.subject": "Neues App-Passwort: {{name}}",
  "app_password_created.message":
    "Für Ihr Konto wurde ein App-Passwort namens „{{name}}“ erstellt. Falls Sie das nicht waren, widerrufen Sie es in Ihren persönlichen Einstellungen und ändern Sie Ihr Passwort.",
  "password_changed.subject": "Ihr Passwort wurde geändert",
  "password_changed.message":
    "Das Passwort Ihres Kontos wurde geändert. Falls Sie das nicht waren, wenden Sie sich sofort an Ihre Administration.",
  "second_factor_added.subject": "Zweiter Faktor hinzugefügt: {{provider}}",
  "second_factor_added.message":
    "{{provider}} schützt jetzt Ihr Konto. Falls Sie das nicht waren, wenden Sie sich sofort an Ihre Administration.",
  "second_factor_removed.subject": "Zweiter Faktor entfernt: {{provider}}",
  "second_factor_removed.message":
    "{{provider}} schützt Ihr Konto nicht mehr. Falls Sie das nicht waren, wenden Sie sich sofort an Ihre Administration.",
  "settings.title": "Benachrichtigungen",
  "settings.intro":
    "Keystream benachrichtigt Sie in Ihren Desktop- und Mobil-Apps, wenn sich ändert, wer auf Ihr Konto zugreifen kann. Nachrichten Ihrer Administration erreichen Sie immer.",
  "settings.legend": "Benachrichtigen, wenn",
  "settings.switch.login_flow": "sich ein Gerät oder eine Anwendung über den Login Flow verbindet",
  "settings.switch.oauth_client": "eine Anwendung Zugriff auf mein Konto erhält",
  "settings.switch.app_password": "ein App-Passwort erstellt wird",
  "settings.switch.password": "mein Passwort geändert wird",
  "settings.switch.second_factor": "ein zweiter Faktor hinzugefügt oder entfernt wird",
  "settings.save": "Speichern",
  "settings.saved": "Ihre Benachrichtigungseinstellungen wurden gespeichert.",
};
