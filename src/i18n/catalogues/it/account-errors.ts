import type { accountErrors as source } from "../en/account-errors.js";
import type { Messages } from "../types.js";

export const accountErrors: Messages<typeof source> = {
  invalidDisplayName: "Il nome completo deve avere da 1 a 255 caratteri.",
  invalidEmail: "«{{email}}» non è un indirizzo e-mail valido.",
  emailTaken: "L’indirizzo e-mail «{{email}}» è già usato da un altro account.",
  invalidUid:
    "Nome utente «{{uid}}» non valido: sono ammessi solo lettere, cifre, spazi e _.@-' (da 1 a 64 caratteri, senza spazi all’inizio o alla fine).",
  uidTaken: "L’utente «{{uid}}» esiste già.",
  uidOfDeletedUser:
    'Il nome utente «{{uid}}» apparteneva a un account eliminato: le applicazioni a cui quell’account ha effettuato l’accesso scambierebbero un nuovo account con quel nome per quello vecchio. Per dare il nome a un nuovo account di proposito: ./occ user:add --reuse-deleted-name "{{uid}}"',
  noSuchUser: "L’utente «{{uid}}» non esiste.",
  ownAccount: "Qui non puoi disattivare né eliminare il tuo account.",
  ownAdminRole: "Qui non puoi toglierti il ruolo di amministratore; può farlo un altro amministratore.",
  ownSignIns: "Qui non puoi terminare le tue sessioni e i tuoi token; usa le tue impostazioni personali.",
  passwordTooShort: "La password deve avere almeno {{min}} caratteri.",
  passwordTooLong: "La password deve avere al massimo {{max}} caratteri.",
  avatarTooLarge: "Un’immagine del profilo deve essere un’immagine PNG o JPEG di al massimo {{kib}} KiB.",
  avatarNotImage: "Un’immagine del profilo deve essere un’immagine PNG o JPEG.",
  invalidAppPasswordName: "Il nome di una password per applicazioni deve avere da 1 a 255 caratteri.",
  unsupportedLanguage: "«{{value}}» non è una lingua offerta da Keystream: en, de, fr, es, it, nl.",
  invalidTimeZone: "«{{value}}» non è un fuso orario (un nome IANA come Europe/Rome).",
  preferenceTooLong: "Il valore di un’impostazione ha al massimo 4000 caratteri.",
  invalidPreferenceName: "Nome di {{kind}} «{{name}}» non valido.",
};
