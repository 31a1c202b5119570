/**
 * Refused account operations (src/accounts/errors.ts): a refusal's `message` is the English
 * text (occ, logs); pages `say` its `phrase` in the reader's language.
 */
export const accountErrors = {
  invalidDisplayName: "the display name must be 1 to 255 characters",
  invalidEmail: '"{{email}}" is not a valid email address',
  emailTaken: 'the email address "{{email}}" is already used by another account',
  invalidUid:
    'invalid user name "{{uid}}": a user name may contain only letters, digits, spaces and _.@-\' (1 to 64 characters, no leading or trailing space)',
  uidTaken: 'the user "{{uid}}" already exists',
  uidOfDeletedUser:
    'the user name "{{uid}}" belonged to a deleted account: the applications that account signed in to would take a new account of that name for it. To give the name to a new account on purpose: ./occ user:add --reuse-deleted-name "{{uid}}"',
  noSuchUser: 'the user "{{uid}}" does not exist',
  ownAccount: "you cannot disable or delete your own account here",
  ownAdminRole: "you cannot remove your own administrator role here: another administrator can",
  ownSignIns: "you cannot end your own sessions and tokens here: use your personal settings",
  passwordTooShort: "the password must be at least {{min}} characters",
  passwordTooLong: "the password must be at most {{max}} characters",
  avatarTooLarge: "an avatar must be a PNG or JPEG image of at most {{kib}} KiB",
  avatarNotImage: "an avatar must be a PNG or JPEG image",
  invalidAppPasswordName: "an app password name must be 1 to 255 characters",
  unsupportedLanguage: '"{{value}}" is not a language Keystream has: en, de, fr, es, it, nl',
  invalidTimeZone: '"{{value}}" is not a time zone (an IANA name such as Europe/Berlin)',
  preferenceTooLong: "a preference value is at most 4000 characters",
  invalidPreferenceName: 'invalid {{kind}} name "{{name}}"',
} as const;
