import type { accountErrors as source } from "../en/account-errors.js";
import type { Messages } from "../types.js";

export const accountErrors: Messages<typeof source> = {
  invalidDisplayName: "Der vollständige Name muss 1 bis 255 Zeichen lang sein.",
  invalidEmail: "„{{email}}“ ist keine gültige E-Mail-Adresse.",
  emailTaken: "Die E-Mail-Adresse „{{email}}“ wird bereits von einem anderen Konto verwendet.",
  invalidUid:
    "Ungültiger Benutzername „{{uid}}“: erlaubt sind Buchstaben, Ziffern, Leerzeichen und _.@-' (1 bis 64 Zeichen, ohne Leerzeichen am Anfang oder Ende).",
  uidTaken: "Den Benutzer „{{uid}}“ gibt es bereits.",
  uidOfDeletedUser:
    'Der Benutzername „{{uid}}“ gehörte einem gelöschten Konto: Die Anwendungen, bei denen sich dieses Konto angemeldet hat, würden ein neues Konto dieses Namens für das alte halten. Um den Namen bewusst einem neuen Konto zu geben: ./occ user:add --reuse-deleted-name "{{uid}}"',
  noSuchUser: "Den Benutzer „{{uid}}“ gibt es nicht.",
  ownAccount: "Sie können Ihr eigenes Konto hier nicht deaktivieren oder löschen.",
  ownAdminRole: "Ihre eigene Administratorrolle können Sie hier nicht entfernen; das kann ein anderer Administrator.",
  ownSignIns: "Ihre eigenen Sitzungen und Tokens können Sie hier nicht beenden; nutzen Sie Ihre persönlichen Einstellungen.",
  passwordTooShort: "Das Passwort muss mindestens {{min}} Zeichen lang sein.",
  passwordTooLong: "Das Passwort darf höchstens {{max}} Zeichen lang sein.",
  avatarTooLarge: "Ein Profilbild muss ein PNG- oder JPEG-Bild von höchstens {{kib}} KiB sein.",
  avatarNotImage: "Ein Profilbild muss ein PNG- oder JPEG-Bild sein.",
  invalidAppPasswordName: "Der Name eines App-Passworts muss 1 bis 255 Zeichen lang sein.",
  unsupportedLanguage: "„{{value}}“ ist keine Sprache, die Keystream anbietet: en, de, fr, es, it, nl.",
  invalidTimeZone: "„{{value}}“ ist keine Zeitzone (ein IANA-Name wie Europe/Berlin).",
  preferenceTooLong: "Ein Einstellungswert darf höchstens 4000 Zeichen lang sein.",
  invalidPreferenceName: "Ungültiger Name für {{kind}}: „{{name}}“.",
};
