/** Groups (migration 0026), as ownCloud's `groups` table: the group id is the key and the name occ takes. */
export interface GroupsTable {
  gid: string;
  /** Shown in the console; the id when none was given (Nextcloud's `group:add --display-name`). */
  display_name: string;
  created_at: number;
}

/** Who is in which group (ownCloud's `group_user`); a user's rows go with the user (ON DELETE CASCADE). */
export interface GroupMembersTable {
  gid: string;
  uid: string;
}

/**
 * The groups an OAuth client admits (migration 0026): a client with no row admits everyone, as
 * ownCloud's oauth2 app does; with rows, only members of one of them. A group named here cannot be
 * deleted (the foreign key restricts), so an allow-list never silently becomes "everyone".
 */
export interface OAuthClientGroupsTable {
  client_id: number;
  gid: string;
}

export interface GroupTables {
  groups: GroupsTable;
  group_members: GroupMembersTable;
  oauth2_client_groups: OAuthClientGroupsTable;
}
