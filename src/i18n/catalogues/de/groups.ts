import type { groups as source } from "../en/groups.js";
import type { Messages } from "../types.js";

export const groups: Messages<typeof source> = {
  invalidGid:
    "Ungültiger Gruppenname „{{gid}}“: 1 bis 64 Zeichen, kein Komma, keine Steuerzeichen, keine Leerzeichen am Anfang oder Ende.",
  groupExists: "Die Gruppe „{{gid}}“ gibt es bereits.",
  noSuchGroup: "Die Gruppe „{{gid}}“ gibt es nicht.",
  adminUndeletable: "Die Gruppe „admin“ enthält die Administratoren und kann nicht gelöscht werden.",
  groupInUse:
    "Die Gruppe „{{gid}}“ ist für die Anwendung(en) {{clients}} zugelassen: Ändern Sie zuerst deren zugelassene Gruppen.",
  lastAdmin: "Der Benutzer „{{uid}}“ ist der letzte Administrator: Machen Sie zuerst einen anderen Benutzer zum Administrator.",
  unknownGroups: "Unbekannte Gruppe(n): {{gids}}; legen Sie sie zuerst an (./occ group:add).",
  title: "Gruppen",
  intro:
    "Gruppen legen fest, wer eine Anwendung (ihre zugelassenen Gruppen) und eine Website hinter Forward-Auth nutzen darf. Mitglieder von admin sind die Administratoren.",
  name: "Gruppe",
  members: "Mitglieder",
  none: "Noch keine Gruppen.",
  create: "Gruppe anlegen",
  newGid: "Gruppenname",
  newDisplayName: "Anzeigename (optional)",
  delete: "Löschen",
  deleteConfirm: "Die Gruppe „{{gid}}“ löschen? Ihre Mitglieder bleiben bestehen, sie verlassen nur die Gruppe.",
  manage: "Mitglieder",
  membersOf: "Mitglieder von {{gid}}",
  noMembers: "Keine Mitglieder.",
  addMember: "Mitglied hinzufügen",
  memberUid: "Benutzername",
  remove: "Entfernen",
  created: "Gruppe „{{gid}}“ angelegt.",
  deleted: "Gruppe „{{gid}}“ gelöscht.",
  added: "„{{uid}}“ zu „{{gid}}“ hinzugefügt.",
  alreadyMember: "„{{uid}}“ ist bereits Mitglied von „{{gid}}“.",
  removed: "„{{uid}}“ aus „{{gid}}“ entfernt.",
  notMember: "„{{uid}}“ ist kein Mitglied von „{{gid}}“.",
  notAvailableTitle: "Anwendung nicht verfügbar",
  notAvailable:
    "Die Anwendung {{name}} steht Ihnen nicht zur Verfügung. Wenn Sie sie brauchen, bitten Sie Ihre Administration, Sie einer ihrer Gruppen hinzuzufügen.",
  notAvailableHere:
    "Diese Anwendung steht Ihnen nicht zur Verfügung. Wenn Sie sie brauchen, bitten Sie Ihre Administration, Sie einer ihrer Gruppen hinzuzufügen.",
  allowedGroups: "Zugelassene Gruppen (durch Kommas getrennt; leer: alle)",
  allowedGroupsShort: "Gruppen",
  removeNamed: "„{{uid}}“ aus „{{gid}}“ entfernen",
};
