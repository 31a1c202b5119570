/**
 * Refused OAuth client administration (src/oauth/client-administration.ts). The English texts are
 * ownCloud's wording as docs/upstream/owncloud-oauth2.md A.5 and A.8 quote it: `occ oauth2:*` prints them
 * verbatim, so they must not be reworded; the admin page shows the reader's language.
 */
export const clientErrors = {
  clientIdTooShort: "The client id should be at least {{min}} characters long",
  secretTooShort: "The client secret should be at least {{min}} characters long",
  invalidRedirect: "The redirect URL is not valid.",
  redirectWithFragment: "The redirect URL must not contain a fragment (#).",
  redirectWithUserinfo: "The redirect URL must not contain a user name or password (user:password@).",
  allowSubdomainsNotBoolean: "Please enter true or false for allowed-sub-domains.",
  trustedNotBoolean: "Please enter true or false for trusted.",
  resourceServerNotBoolean: "Please enter true or false for resource-server.",
  accountAccessNotBoolean: "Please enter true or false for account-access.",
  unknownScope: "Unknown scope {{scope}}; the scopes are: {{known}}.",
  invalidPostLogoutRedirect: "The post-logout redirect URL is not valid.",
  invalidBackchannelLogout: "The back-channel logout URL is not valid: an absolute http or https URL without a fragment (#).",
  backchannelLogoutNotHttps:
    "The back-channel logout URL must use https (http only on a loopback address: localhost, 127.0.0.1, [::1]).",
  localhostTrusted: "Cannot set localhost as trusted.",
  nameTaken: "Client name {{name}} is already known.",
  clientIdTaken: "Client {{id}} is already known.",
  noSuchName: "Client with name {{name}} does not exist.",
  invalidKey: "Key {{key}} is not valid.",
  unknownClientId: "Client {{id}} is unknown",
  emptyName: "Name must not be empty",
  nameTooLong: "Name must be at most {{max}} characters",
  // The admin page's own wording (docs/upstream/owncloud-oauth2.md A.8).
  emptyRedirect: "Redirect URI must not be empty",
  invalidRedirectUrl: "Redirect URI must be a valid URL",
  nameExists: "Name {{name}} already exists",
  noSuchClient: "No such client",
} as const;
