import type { secondFactor as source } from "../en/second-factor.js";
import type { Messages } from "../types.js";

export const secondFactor: Messages<typeof source> = {
  "provider.totp": "Authenticator-App (TOTP)",
  "provider.backup_codes": "Wiederherstellungscodes",
  "provider.webauthn": "Passkeys",
  "challenge.title": "Zweiter Faktor",
  "challenge.intro":
    "Ihr Konto ist durch einen zweiten Faktor geschützt. Verwenden Sie einen davon, um die Anmeldung abzuschließen.",
  "challenge.totpLabel": "Der sechsstellige Code, den Ihre Authenticator-App anzeigt",
  "challenge.recoveryLabel": "Einer Ihrer Wiederherstellungscodes",
  "challenge.recoveryHint": "Jeder Wiederherstellungscode funktioniert nur einmal.",
  "challenge.submit": "Bestätigen",
  "challenge.wrong": "Der Code ist falsch oder wurde bereits verwendet.",
  "challenge.throttled": "Zu viele fehlgeschlagene Versuche. Bitte versuchen Sie es später erneut.",
  "challenge.none":
    "Keiner der zweiten Faktoren Ihres Kontos kann hier verwendet werden. Bitten Sie Ihre Administration, sie zurückzusetzen.",
  "challenge.cancel": "Abbrechen und abmelden",
  "setup.title": "Zweiten Faktor einrichten",
  "setup.intro":
    "Ihre Administration verlangt für jedes Konto einen zweiten Faktor. Richten Sie jetzt eine Authenticator-App ein, um die Anmeldung abzuschließen.",
  "setup.doneTitle": "Zweiter Faktor eingerichtet",
  "setup.done":
    "Ihre Authenticator-App ist aktiviert. Unten stehen Ihre Wiederherstellungscodes: Bewahren Sie sie sicher auf, sie werden nur dieses eine Mal angezeigt.",
  "setup.continue": "Weiter",
  "totp.scan":
    "Scannen Sie diesen QR-Code mit Ihrer Authenticator-App (zum Beispiel Aegis, FreeOTP oder Google Authenticator) oder geben Sie den Schlüssel unten dort ein.",
  "totp.qrLabel": "QR-Code des Schlüssels für Ihre Authenticator-App",
  "totp.secret": "Schlüssel",
  "totp.codeLabel": "Der Code, den Ihre App jetzt anzeigt, zur Bestätigung",
  "totp.enable": "Aktivieren",
  "totp.wrongCode":
    "Der Code stimmt nicht. Prüfen Sie, ob die Uhr Ihres Geräts richtig geht, und geben Sie den aktuellen Code ein.",
  "settings.title": "Zwei-Faktor-Authentifizierung",
  "settings.intro":
    "Ein zweiter Faktor schützt Ihr Konto auch dann, wenn jemand Ihr Passwort kennt. Damit melden sich Desktop- und Smartphone-Clients über den Browser oder mit einem App-Passwort an.",
  "settings.enforced": "Ihre Administration verlangt für jedes Konto einen zweiten Faktor.",
  "settings.totp.enabled": "Aktiviert.",
  "settings.totp.off": "Nicht eingerichtet.",
  "settings.totp.begin": "Authenticator-App einrichten",
  "settings.totp.cancel": "Einrichtung abbrechen",
  "settings.totp.disable": "Authenticator-App deaktivieren",
  "settings.totp.enabledNotice":
    "Die Authenticator-App ist aktiviert. Erzeugen Sie jetzt Wiederherstellungscodes, falls Sie das Gerät verlieren.",
  "settings.totp.disabledNotice": "Die Authenticator-App wurde deaktiviert, und mit ihr Ihre Wiederherstellungscodes.",
  "settings.recovery.count": "{{unused}} von {{total}} Wiederherstellungscodes übrig.",
  "settings.recovery.none": "Keine Wiederherstellungscodes erzeugt.",
  "settings.recovery.needFactor": "Richten Sie zuerst eine Authenticator-App ein.",
  "settings.recovery.generate": "Neue Wiederherstellungscodes erzeugen",
  "settings.recovery.generated":
    "Ihre neuen Wiederherstellungscodes. Bewahren Sie sie sicher auf: Sie werden nur dieses eine Mal angezeigt, und jeder funktioniert einmal. Ihre bisherigen Codes gelten nicht mehr.",
  "settings.recovery.download": "Als Textdatei herunterladen",
  "settings.recovery.fileIntro": "Keystream-Wiederherstellungscodes von {{uid}} (jeder funktioniert einmal)",
  "admin.column": "Zweite Faktoren",
  "admin.none": "Keine",
  "admin.remove": "Entfernen",
  "admin.removeNamed": "{{provider}} von {{uid}} entfernen",
  "admin.removed": "{{provider}} für {{uid}} entfernt.",
  "admin.noSuch": "Der Benutzer hat keinen solchen zweiten Faktor.",
  "passkey.settingsIntro":
    "Passkeys melden Sie mit der Bildschirmsperre Ihres Geräts oder einem Sicherheitsschlüssel an, ohne Passwort, und dienen auch als zweiter Faktor nach einem Passwort.",
  "passkey.none": "Keine Passkeys registriert.",
  "passkey.tableCaption": "Ihre Passkeys",
  "passkey.columnName": "Name",
  "passkey.columnCreated": "Hinzugefügt",
  "passkey.columnLastUsed": "Zuletzt verwendet",
  "passkey.remove": "Entfernen",
  "passkey.removeNamed": "Passkey {{name}} entfernen",
  "passkey.removed": "Der Passkey wurde entfernt.",
  "passkey.noSuch": "Diesen Passkey gibt es nicht.",
  "passkey.nameLabel": "Name des neuen Passkeys (zum Beispiel das Gerät, auf dem er liegt)",
  "passkey.defaultName": "Passkey",
  "passkey.add": "Passkey hinzufügen",
  "passkey.failed": "Der Passkey konnte nicht registriert werden. Bitte versuchen Sie es erneut.",
  "passkey.confirmFailed": "Bestätigen Sie Ihr Passwort und versuchen Sie es dann erneut.",
  "passkey.unsupported": "Dieser Browser kann keine Passkeys verwenden.",
  "passkey.needsScript": "Passkeys benötigen in diesem Browser JavaScript.",
  "passkey.signIn": "Mit einem Passkey anmelden",
  "passkey.signInHint":
    "Oder verwenden Sie einen auf diesem Gerät gespeicherten Passkey oder einen Sicherheitsschlüssel: ganz ohne Passwort.",
  "passkey.signInFailed":
    "Der Passkey wurde nicht akzeptiert. Versuchen Sie es erneut oder melden Sie sich mit Ihrem Passwort an.",
  "passkey.challengeUse": "Passkey verwenden",
  "passkey.challengeHint": "Verwenden Sie einen für dieses Konto registrierten Passkey.",
  "passkey.working": "Warte auf Ihren Passkey…",
};
