/**
 * A group id, as ownCloud takes one (owncloud/core lib/private/Group/Manager.php `createGroup`:
 * not empty, no leading or trailing white space; `groups.gid` is varchar(64)). Keystream also
 * refuses a comma and control characters: lists of groups are written comma-separated
 * (`oauth2:modify-client NAME allowed-groups "g1,g2"`, forward auth's `?group=a,b`), see docs/decisions.md.
 */
export const ADMIN_GROUP = "admin";

const MAX_LENGTH = 64;

export function validGid(gid: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  return !(gid === "" || gid.length > MAX_LENGTH || gid.trim() !== gid || /[,\u0000-\u001f\u007f]/.test(gid));
}

/**
 * A comma-separated list of group ids as an administrator writes it (`"editors, admin"`): trimmed,
 * empty items dropped, duplicates removed, in the order given. The empty list means "no restriction".
 */
export function parseGroupList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item !== ""),
    ),
  ];
}
