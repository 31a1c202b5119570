import type { notifications as source } from "../en/notifications.js";
import type { Messages } from "../types.js";

export const notifications: Messages<typeof source> = {
  "login_flow_granted.subject": "Nieuw apparaat verbonden: {{name}}",
  "login_flow_granted.message":
    "Een toepassing die zichzelf „{{name}}” noemt, heeft via Login Flow toegang tot uw account en een app-wachtwoord gekregen. Was u dit niet, trek het dan in via uw persoonlijke instellingen en wijzig uw wachtwoord.",
  "oauth_client_authorized.subject": "{{name}} heeft toegang tot uw account gekregen",
  "oauth_client_authorized.message":
    "De toepassing „{{name}}” heeft nu toegang tot uw account. Was u dit niet, trek de toegang dan in via uw persoonlijke instellingen en wijzig uw wachtwoord.",
  "app_password_created.subject": "Nieuw app-wachtwoord: {{name}}",
  "app_password_created.message":
    "Er is een app-wachtwoord met de naam „{{name}}” voor uw account aangemaakt. Was u dit niet, trek het dan in via uw persoonlijke instellingen en wijzig uw wachtwoord.",
  "password_changed.subject": "Uw wachtwoord is gewijzigd",
  "password_changed.message":
    "Het wachtwoord van uw account is gewijzigd. Was u dit niet, neem dan direct contact op met uw beheerder.",
  "second_factor_added.subject": "Tweede factor toegevoegd: {{provider}}",
  "second_factor_added.message":
    "{{provider}} beschermt nu uw account. Was u dit niet, neem dan direct contact op met uw beheerder.",
  "second_factor_removed.subject": "Tweede factor verwijderd: {{provider}}",
  "second_factor_removed.message":
    "{{provider}} beschermt uw account niet meer. Was u dit niet, neem dan direct contact op met uw beheerder.",
  "settings.title": "Meldingen",
  "settings.intro":
    "Keystream laat u in uw desktop- en mobiele apps weten wanneer er iets verandert aan wie toegang heeft tot uw account. Berichten van uw beheerder bereiken u altijd.",
  "settings.legend": "Meld het mij wanneer",
  "settings.switch.login_flow": "een apparaat of toepassing verbindt via Login Flow",
  "settings.switch.oauth_client": "een toepassing toegang krijgt tot mijn account",
  "settings.switch.app_password": "er een app-wachtwoord wordt aangemaakt",
  "settings.switch.password": "mijn wachtwoord wordt gewijzigd",
  "settings.switch.second_factor": "er een tweede factor wordt toegevoegd of verwijderd",
  "settings.save": "Opslaan",
  "settings.saved": "Uw meldingsinstellingen zijn opgeslagen.",
};
