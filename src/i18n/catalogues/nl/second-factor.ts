import type { secondFactor as source } from "../en/second-factor.js";
import type { Messages } from "../types.js";

export const secondFactor: Messages<typeof source> = {
  "provider.totp": "Authenticator-app (TOTP)",
  "provider.backup_codes": "Herstelcodes",
  "provider.webauthn": "Passkeys",
  "challenge.title": "Tweede factor",
  "challenge.intro": "Uw account is beveiligd met een tweede factor. Gebruik er een om het inloggen af te ronden.",
  "challenge.totpLabel": "De zescijferige code die uw authenticator-app toont",
  "challenge.recoveryLabel": "Een van uw herstelcodes",
  "challenge.recoveryHint": "Elke herstelcode werkt maar één keer.",
  "challenge.submit": "Controleren",
  "challenge.wrong": "De code is onjuist of is al gebruikt.",
  "challenge.throttled": "Te veel mislukte pogingen. Probeer het later opnieuw.",
  "challenge.none":
    "Geen van de tweede factoren van uw account kan hier worden gebruikt. Vraag uw beheerder ze opnieuw in te stellen.",
  "challenge.cancel": "Annuleren en uitloggen",
  "setup.title": "Een tweede factor instellen",
  "setup.intro":
    "Uw beheerder vereist een tweede factor voor elk account. Stel nu een authenticator-app in om het inloggen af te ronden.",
  "setup.doneTitle": "Tweede factor ingesteld",
  "setup.done":
    "Uw authenticator-app is ingeschakeld. Hieronder staan uw herstelcodes: bewaar ze op een veilige plek, ze worden alleen deze ene keer getoond.",
  "setup.continue": "Doorgaan",
  "totp.scan":
    "Scan deze QR-code met uw authenticator-app (bijvoorbeeld Aegis, FreeOTP of Google Authenticator), of voer de sleutel hieronder daarin in.",
  "totp.qrLabel": "QR-code van de sleutel voor uw authenticator-app",
  "totp.secret": "Sleutel",
  "totp.codeLabel": "De code die uw app nu toont, ter bevestiging",
  "totp.enable": "Inschakelen",
  "totp.wrongCode": "De code klopt niet. Controleer of de klok van uw apparaat juist staat en voer de huidige code in.",
  "settings.title": "Tweestapsverificatie",
  "settings.intro":
    "Een tweede factor beschermt uw account, ook als iemand uw wachtwoord kent. Desktop- en telefoonclients loggen dan in via de browser of met een app-wachtwoord.",
  "settings.enforced": "Uw beheerder vereist een tweede factor voor elk account.",
  "settings.totp.enabled": "Ingeschakeld.",
  "settings.totp.off": "Niet ingesteld.",
  "settings.totp.begin": "Een authenticator-app instellen",
  "settings.totp.cancel": "Instellen annuleren",
  "settings.totp.disable": "Authenticator-app uitschakelen",
  "settings.totp.enabledNotice":
    "De authenticator-app is ingeschakeld. Maak nu herstelcodes aan, voor het geval u het apparaat kwijtraakt.",
  "settings.totp.disabledNotice": "De authenticator-app is uitgeschakeld, en uw herstelcodes ook.",
  "settings.recovery.count": "Nog {{unused}} van {{total}} herstelcodes over.",
  "settings.recovery.none": "Geen herstelcodes aangemaakt.",
  "settings.recovery.needFactor": "Stel eerst een authenticator-app in.",
  "settings.recovery.generate": "Nieuwe herstelcodes aanmaken",
  "settings.recovery.generated":
    "Uw nieuwe herstelcodes. Bewaar ze op een veilige plek: ze worden alleen deze ene keer getoond en elke code werkt één keer. Uw vorige codes werken niet meer.",
  "settings.recovery.download": "Downloaden als tekstbestand",
  "settings.recovery.fileIntro": "Keystream-herstelcodes van {{uid}} (elke code werkt één keer)",
  "admin.column": "Tweede factoren",
  "admin.none": "Geen",
  "admin.remove": "Verwijderen",
  "admin.removeNamed": "{{provider}} van {{uid}} verwijderen",
  "admin.removed": "{{provider}} verwijderd voor {{uid}}.",
  "admin.noSuch": "De gebruiker heeft deze tweede factor niet.",
};
