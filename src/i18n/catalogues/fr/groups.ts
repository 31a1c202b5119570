import type { groups as source } from "../en/groups.js";
import type { Messages } from "../types.js";

export const groups: Messages<typeof source> = {
  invalidGid:
    "Nom de groupe « {{gid}} » invalide : 1 à 64 caractères, sans virgule, sans caractères de contrôle, sans espace au début ni à la fin.",
  groupExists: "Le groupe « {{gid}} » existe déjà.",
  noSuchGroup: "Le groupe « {{gid}} » n’existe pas.",
  adminUndeletable: "Le groupe « admin » contient les administrateurs et ne peut pas être supprimé.",
  groupInUse:
    "Le groupe « {{gid}} » est autorisé pour l’application ou les applications {{clients}} : modifiez d’abord leurs groupes autorisés.",
  lastAdmin: "L’utilisateur « {{uid}} » est le dernier administrateur : nommez d’abord un autre administrateur.",
  unknownGroups: "Groupe(s) inconnu(s) : {{gids}} ; créez-les d’abord (./occ group:add).",
  title: "Groupes",
  intro:
    "Les groupes décident qui peut utiliser une application (ses groupes autorisés) et un site derrière l’authentification déléguée. Les membres de admin sont les administrateurs.",
  name: "Groupe",
  members: "Membres",
  none: "Aucun groupe pour l’instant.",
  create: "Créer le groupe",
  newGid: "Nom du groupe",
  newDisplayName: "Nom affiché (facultatif)",
  delete: "Supprimer",
  deleteConfirm: "Supprimer le groupe « {{gid}} » ? Ses membres restent ; ils quittent seulement le groupe.",
  manage: "Membres",
  membersOf: "Membres de {{gid}}",
  noMembers: "Aucun membre.",
  addMember: "Ajouter un membre",
  memberUid: "Nom d’utilisateur",
  remove: "Retirer",
  created: "Groupe « {{gid}} » créé.",
  deleted: "Groupe « {{gid}} » supprimé.",
  added: "« {{uid}} » ajouté à « {{gid}} ».",
  alreadyMember: "« {{uid}} » est déjà membre de « {{gid}} ».",
  removed: "« {{uid}} » retiré de « {{gid}} ».",
  notMember: "« {{uid}} » n’est pas membre de « {{gid}} ».",
  notAvailableTitle: "Application non disponible",
  notAvailable:
    "L’application {{name}} ne vous est pas accessible. Si vous en avez besoin, demandez à votre administrateur de vous ajouter à l’un de ses groupes.",
  notAvailableHere:
    "Cette application ne vous est pas accessible. Si vous en avez besoin, demandez à votre administrateur de vous ajouter à l’un de ses groupes.",
  allowedGroups: "Groupes autorisés (séparés par des virgules ; vide : tout le monde)",
  allowedGroupsShort: "Groupes",
  removeNamed: "Retirer « {{uid}} » de « {{gid}} »",
};
