import type { loginFlow as source } from "../en/login-flow.js";
import type { Messages } from "../types.js";

export const loginFlow: Messages<typeof source> = {
  loginNote:
    "Een toepassing die zichzelf ‘{{name}}’ noemt, wil verbinding maken met je account. Meld je eerst aan om toegang te geven.",
  "grant.title": "Verbinden met je account",
  "grant.request": "Een toepassing vraagt toegang tot je account.",
  "grant.reportedName": "Naam volgens de toepassing",
  "grant.startedFrom": "Gestart vanaf het adres",
  "grant.startedAt": "Gestart",
  "grant.claim":
    "De naam is de eigen omschrijving van de toepassing: Keystream kan hem niet controleren. Het adres en de tijd heeft Keystream zelf gezien: geef alleen toegang als ze passen bij het apparaat dat je nu verbindt.",
  "grant.account":
    "Je bent aangemeld als {{user}}. Als je toegang geeft, wordt er een app-wachtwoord voor deze toepassing aangemaakt; je kunt het intrekken in je persoonlijke instellingen.",
  "grant.warning":
    "Ben je niet zelf net begonnen een apparaat of toepassing te verbinden? Dan probeert iemand je misschien te misleiden om toegang tot je gegevens te krijgen: annuleer.",
  "grant.allow": "Toegang geven",
  "grant.cancel": "Annuleren",
  "done.title": "Account verbonden",
  "done.text":
    "De toepassing die zichzelf {{name}} noemt, is nu verbonden met je account. Je kunt dit venster sluiten en teruggaan naar de toepassing.",
  "cancelled.title": "Toegang geweigerd",
  "cancelled.text": "De toepassing heeft geen toegang tot je account gekregen. Je kunt dit venster sluiten.",
  "invalid.title": "Link ongeldig",
  "invalid.text": "Deze aanmeldlink is ongeldig, verlopen of al gebruikt. Begin opnieuw met aanmelden vanuit je toepassing.",
};
