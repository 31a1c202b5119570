import type { accountErrors as source } from "../en/account-errors.js";
import type { Messages } from "../types.js";

export const accountErrors: Messages<typeof source> = {
  invalidDisplayName: "De volledige naam moet 1 tot 255 tekens lang zijn.",
  invalidEmail: "‘{{email}}’ is geen geldig e-mailadres.",
  emailTaken: "Het e-mailadres ‘{{email}}’ wordt al door een ander account gebruikt.",
  invalidUid:
    "Ongeldige gebruikersnaam ‘{{uid}}’: alleen letters, cijfers, spaties en _.@-' zijn toegestaan (1 tot 64 tekens, zonder spatie aan het begin of eind).",
  uidTaken: "De gebruiker ‘{{uid}}’ bestaat al.",
  uidOfDeletedUser:
    'De gebruikersnaam ‘{{uid}}’ hoorde bij een verwijderd account: de applicaties waarbij dat account zich aanmeldde, zouden een nieuw account met die naam voor het oude aanzien. Om de naam bewust aan een nieuw account te geven: ./occ user:add --reuse-deleted-name "{{uid}}"',
  noSuchUser: "De gebruiker ‘{{uid}}’ bestaat niet.",
  ownAccount: "Je eigen account kun je hier niet uitschakelen of verwijderen.",
  ownAdminRole: "Je eigen beheerdersrol kun je hier niet intrekken; een andere beheerder kan dat wel.",
  ownSignIns: "Je eigen sessies en tokens kun je hier niet beëindigen; gebruik je persoonlijke instellingen.",
  passwordTooShort: "Het wachtwoord moet minstens {{min}} tekens lang zijn.",
  passwordTooLong: "Het wachtwoord mag hoogstens {{max}} tekens lang zijn.",
  avatarTooLarge: "Een profielfoto moet een PNG- of JPEG-afbeelding van hoogstens {{kib}} KiB zijn.",
  avatarNotImage: "Een profielfoto moet een PNG- of JPEG-afbeelding zijn.",
  invalidAppPasswordName: "De naam van een app-wachtwoord moet 1 tot 255 tekens lang zijn.",
  unsupportedLanguage: "‘{{value}}’ is geen taal die Keystream aanbiedt: en, de, fr, es, it, nl.",
  invalidTimeZone: "‘{{value}}’ is geen tijdzone (een IANA-naam zoals Europe/Amsterdam).",
  preferenceTooLong: "Een voorkeurswaarde is hoogstens 4000 tekens lang.",
  invalidPreferenceName: "Ongeldige naam voor {{kind}}: ‘{{name}}’.",
};
