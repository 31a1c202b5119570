import type { groups as source } from "../en/groups.js";
import type { Messages } from "../types.js";

export const groups: Messages<typeof source> = {
  invalidGid:
    "Nome di gruppo «{{gid}}» non valido: da 1 a 64 caratteri, senza virgole, senza caratteri di controllo, senza spazi iniziali o finali.",
  groupExists: "Il gruppo «{{gid}}» esiste già.",
  noSuchGroup: "Il gruppo «{{gid}}» non esiste.",
  adminUndeletable: "Il gruppo «admin» contiene gli amministratori e non può essere eliminato.",
  groupInUse:
    "Il gruppo «{{gid}}» è consentito per l’applicazione o le applicazioni {{clients}}: modifica prima i loro gruppi consentiti.",
  lastAdmin: "L’utente «{{uid}}» è l’ultimo amministratore: rendi prima amministratore un altro utente.",
  unknownGroups: "Gruppo/i sconosciuto/i: {{gids}}; creali prima (./occ group:add).",
  title: "Gruppi",
  intro:
    "I gruppi decidono chi può usare un’applicazione (i suoi gruppi consentiti) e un sito dietro l’autenticazione delegata. I membri di admin sono gli amministratori.",
  name: "Gruppo",
  members: "Membri",
  none: "Ancora nessun gruppo.",
  create: "Crea gruppo",
  newGid: "Nome del gruppo",
  newDisplayName: "Nome visualizzato (facoltativo)",
  delete: "Elimina",
  deleteConfirm: "Eliminare il gruppo «{{gid}}»? I suoi membri restano; lasciano solo il gruppo.",
  manage: "Membri",
  membersOf: "Membri di {{gid}}",
  noMembers: "Nessun membro.",
  addMember: "Aggiungi membro",
  memberUid: "Nome utente",
  remove: "Rimuovi",
  created: "Gruppo «{{gid}}» creato.",
  deleted: "Gruppo «{{gid}}» eliminato.",
  added: "«{{uid}}» aggiunto a «{{gid}}».",
  alreadyMember: "«{{uid}}» è già membro di «{{gid}}».",
  removed: "«{{uid}}» rimosso da «{{gid}}».",
  notMember: "«{{uid}}» non è membro di «{{gid}}».",
  notAvailableTitle: "Applicazione non disponibile",
  notAvailable:
    "L’applicazione {{name}} non è disponibile per te. Se ti serve, chiedi al tuo amministratore di aggiungerti a uno dei suoi gruppi.",
  notAvailableHere:
    "Questa applicazione non è disponibile per te. Se ti serve, chiedi al tuo amministratore di aggiungerti a uno dei suoi gruppi.",
  allowedGroups: "Gruppi consentiti (separati da virgole; vuoto: tutti)",
  allowedGroupsShort: "Gruppi",
  removeNamed: "Rimuovi «{{uid}}» da «{{gid}}»",
};
