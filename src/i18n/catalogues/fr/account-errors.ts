import type { accountErrors as source } from "../en/account-errors.js";
import type { Messages } from "../types.js";

export const accountErrors: Messages<typeof source> = {
  invalidDisplayName: "Le nom complet doit compter de 1 à 255 caractères.",
  invalidEmail: "« {{email}} » n’est pas une adresse e-mail valide.",
  emailTaken: "L’adresse e-mail « {{email}} » est déjà utilisée par un autre compte.",
  invalidUid:
    "Nom d’utilisateur « {{uid}} » non valide : seuls les lettres, chiffres, espaces et _.@-' sont permis (1 à 64 caractères, sans espace au début ni à la fin).",
  uidTaken: "L’utilisateur « {{uid}} » existe déjà.",
  uidOfDeletedUser:
    'Le nom d’utilisateur « {{uid}} » appartenait à un compte supprimé : les applications auxquelles ce compte s’est connecté prendraient un nouveau compte de ce nom pour l’ancien. Pour donner ce nom à un nouveau compte en connaissance de cause : ./occ user:add --reuse-deleted-name "{{uid}}"',
  noSuchUser: "L’utilisateur « {{uid}} » n’existe pas.",
  ownAccount: "Vous ne pouvez pas désactiver ni supprimer votre propre compte ici.",
  ownAdminRole: "Vous ne pouvez pas retirer ici votre propre rôle d’administrateur ; un autre administrateur le peut.",
  ownSignIns: "Vous ne pouvez pas mettre fin ici à vos propres sessions et jetons ; utilisez vos paramètres personnels.",
  passwordTooShort: "Le mot de passe doit compter au moins {{min}} caractères.",
  passwordTooLong: "Le mot de passe doit compter au plus {{max}} caractères.",
  avatarTooLarge: "Une photo de profil doit être une image PNG ou JPEG de {{kib}} Kio au plus.",
  avatarNotImage: "Une photo de profil doit être une image PNG ou JPEG.",
  invalidAppPasswordName: "Le nom d’un mot de passe d’application doit compter de 1 à 255 caractères.",
  unsupportedLanguage: "« {{value}} » n’est pas une langue proposée par Keystream : en, de, fr, es, it, nl.",
  invalidTimeZone: "« {{value}} » n’est pas un fuseau horaire (un nom IANA comme Europe/Paris).",
  preferenceTooLong: "Une valeur de préférence compte au plus 4000 caractères.",
  invalidPreferenceName: "Nom de {{kind}} « {{name}} » non valide.",
};
