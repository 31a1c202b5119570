import type { groups as source } from "../en/groups.js";
import type { Messages } from "../types.js";

export const groups: Messages<typeof source> = {
  invalidGid:
    "Ongeldige groepsnaam ‘{{gid}}’: 1 tot 64 tekens, geen komma, geen stuurtekens, geen spatie aan het begin of einde.",
  groupExists: "De groep ‘{{gid}}’ bestaat al.",
  noSuchGroup: "De groep ‘{{gid}}’ bestaat niet.",
  adminUndeletable: "De groep ‘admin’ bevat de beheerders en kan niet worden verwijderd.",
  groupInUse: "De groep ‘{{gid}}’ is toegestaan voor de applicatie(s) {{clients}}: wijzig eerst hun toegestane groepen.",
  lastAdmin: "De gebruiker ‘{{uid}}’ is de laatste beheerder: maak eerst een andere gebruiker beheerder.",
  unknownGroups: "Onbekende groep(en): {{gids}}; maak ze eerst aan (./occ group:add).",
  title: "Groepen",
  intro:
    "Groepen bepalen wie een applicatie (haar toegestane groepen) en een site achter forward auth mag gebruiken. Leden van admin zijn de beheerders.",
  name: "Groep",
  members: "Leden",
  none: "Nog geen groepen.",
  create: "Groep aanmaken",
  newGid: "Groepsnaam",
  newDisplayName: "Weergavenaam (optioneel)",
  delete: "Verwijderen",
  deleteConfirm: "De groep ‘{{gid}}’ verwijderen? De leden blijven bestaan; ze verlaten alleen de groep.",
  manage: "Leden",
  membersOf: "Leden van {{gid}}",
  noMembers: "Geen leden.",
  addMember: "Lid toevoegen",
  memberUid: "Gebruikersnaam",
  remove: "Verwijderen",
  created: "Groep ‘{{gid}}’ aangemaakt.",
  deleted: "Groep ‘{{gid}}’ verwijderd.",
  added: "‘{{uid}}’ toegevoegd aan ‘{{gid}}’.",
  alreadyMember: "‘{{uid}}’ is al lid van ‘{{gid}}’.",
  removed: "‘{{uid}}’ verwijderd uit ‘{{gid}}’.",
  notMember: "‘{{uid}}’ is geen lid van ‘{{gid}}’.",
  notAvailableTitle: "Applicatie niet beschikbaar",
  notAvailable:
    "De applicatie {{name}} is niet voor je beschikbaar. Heb je haar nodig, vraag dan je beheerder je aan een van haar groepen toe te voegen.",
  notAvailableHere:
    "Deze applicatie is niet voor je beschikbaar. Heb je haar nodig, vraag dan je beheerder je aan een van haar groepen toe te voegen.",
  allowedGroups: "Toegestane groepen (door komma’s gescheiden; leeg: iedereen)",
  allowedGroupsShort: "Groepen",
  removeNamed: "‘{{uid}}’ verwijderen uit ‘{{gid}}’",
};
