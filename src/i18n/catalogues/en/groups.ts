/**
 * Groups (src/groups): refusals (a group refusal's `message` is the English text for occ and logs; pages
 * show the reader's language) and the console's groups area (src/http/console/controllers/admin-groups.ts).
 */
export const groups = {
  invalidGid: 'invalid group name "{{gid}}": 1 to 64 characters, no comma, no control characters, no leading or trailing space',
  groupExists: 'The group "{{gid}}" already exists',
  noSuchGroup: 'Group "{{gid}}" does not exist',
  adminUndeletable: 'The group "admin" holds the administrators and cannot be deleted',
  groupInUse: 'The group "{{gid}}" is allowed on the application(s) {{clients}}: change their allowed groups first',
  lastAdmin: 'The user "{{uid}}" is the last administrator: make another user an administrator first',
  unknownGroups: "unknown group(s): {{gids}}; create them first (./occ group:add)",
  // The console's groups area.
  title: "Groups",
  intro:
    "Groups decide who may use an application (its allowed groups) and a site behind forward auth. Members of admin are the administrators.",
  name: "Group",
  members: "Members",
  none: "No groups yet.",
  create: "Create group",
  newGid: "Group name",
  newDisplayName: "Display name (optional)",
  delete: "Delete",
  deleteConfirm: 'Delete the group "{{gid}}"? Its members stay; they only leave the group.',
  manage: "Members",
  membersOf: "Members of {{gid}}",
  noMembers: "No members.",
  addMember: "Add member",
  memberUid: "User name",
  remove: "Remove",
  created: 'Created group "{{gid}}"',
  deleted: 'Deleted group "{{gid}}"',
  added: 'Added "{{uid}}" to "{{gid}}"',
  alreadyMember: '"{{uid}}" is already a member of "{{gid}}"',
  removed: 'Removed "{{uid}}" from "{{gid}}"',
  notMember: '"{{uid}}" is not a member of "{{gid}}"',
  notAvailableTitle: "Application not available",
  notAvailable:
    "The application {{name}} is not available to you. If you need it, ask your administrator to add you to one of its groups.",
  notAvailableHere:
    "This application is not available to you. If you need it, ask your administrator to add you to one of its groups.",
  allowedGroups: "Allowed groups (comma-separated; empty: everyone)",
  allowedGroupsShort: "Groups",
  removeNamed: 'Remove "{{uid}}" from "{{gid}}"',
} as const;
