/** The administration console's users area, a user's page and the settings area. */
import type { adminConsole as source } from "../en/console.js";
import type { Messages } from "../types.js";

export const adminConsole: Messages<typeof source> = {
  "users.search": "Search users",
  "users.searchHint": "Part of a user name, full name or email address.",
  "users.searchButton": "Search",
  "users.clear": "Show all",
  "users.showing": "Users {{first}}–{{last}} of {{total}}",
  "users.none": "There are no users yet.",
  "users.noMatch": "No user matches “{{text}}”.",
  "users.pages": "Pages of users",
  "users.previous": "Previous page",
  "users.next": "Next page",
  "users.pageOf": "Page {{page}} of {{pages}}",
  "users.lastLogin": "Last sign-in",
  "users.openUser": "Open the page of {{uid}}",
  "user.title": "User {{uid}}",
  "user.back": "← All users",
  "user.account": "Account",
  "user.created": "Created",
  "user.verified": "verified",
  "user.unverified": "not verified",
  "user.sessions": "Browser sessions",
  "user.appPasswords": "App passwords",
  "user.applications": "Authorized applications",
  "user.emailHint":
    "A changed address is not verified until the user's control of it is confirmed (./occ user:modify --verified). Empty: no address.",
  "user.profileSaved": "The full name and email address of {{uid}} were saved.",
  "user.isAdmin": "This user is an administrator: they can open this console.",
  "user.isNotAdmin": "This user is not an administrator.",
  "user.selfRole": "You cannot take your own administrator role away here.",
  "user.promote": "Make administrator",
  "user.demote": "Remove administrator role",
  "user.promoted": "{{uid}} is now an administrator.",
  "user.demoted": "{{uid}} is no longer an administrator.",
  "user.signOutTitle": "Sessions and tokens",
  "user.signOutIntro":
    "Ends every browser session, app password and authorized application (with its tokens) of this user at once, on every server. Their desktop and phone clients must sign in again; the account and its password stay.",
  "user.signOut": "End all sessions and tokens",
  "user.selfSignOut": "Your own sessions and tokens: see your personal settings.",
  "user.signedOut":
    "Every sign-in of {{uid}} was ended: {{sessions}} browser sessions, {{credentials}} app passwords and authorizations.",
  "user.passwordHint": "At least 8 characters. The user's browser sessions end; app passwords and authorized applications stay.",
  "user.stateTitle": "Disable or delete",
  "user.deleteHint":
    "Disabling signs the user out and refuses their sign-ins until enabled again. Deleting removes the account with its sessions, app passwords, authorizations and activities; the user name stays reserved.",
};
