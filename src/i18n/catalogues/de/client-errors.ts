import type { clientErrors as source } from "../en/client-errors.js";
import type { Messages } from "../types.js";

export const clientErrors: Messages<typeof source> = {
  clientIdTooShort: "Die Client-Kennung muss mindestens {{min}} Zeichen lang sein.",
  secretTooShort: "Das Client-Geheimnis muss mindestens {{min}} Zeichen lang sein.",
  invalidRedirect: "Die Weiterleitungsadresse ist ungültig.",
  redirectWithFragment: "Die Weiterleitungsadresse darf kein Fragment (#) enthalten.",
  redirectWithUserinfo: "Die Weiterleitungsadresse darf keinen Benutzernamen und kein Passwort (user:password@) enthalten.",
  allowSubdomainsNotBoolean: "Bitte geben Sie für allowed-sub-domains true oder false an.",
  trustedNotBoolean: "Bitte geben Sie für trusted true oder false an.",
  resourceServerNotBoolean: "Bitte geben Sie für resource-server true oder false an.",
  accountAccessNotBoolean: "Bitte geben Sie für account-access true oder false an.",
  unknownScope: "Unbekannter Scope {{scope}}; die Scopes sind: {{known}}.",
  invalidPostLogoutRedirect: "Die Weiterleitungsadresse nach der Abmeldung ist ungültig.",
  invalidBackchannelLogout:
    "Die Back-Channel-Logout-URL ist ungültig: Sie muss eine absolute http- oder https-URL ohne Fragment (#) sein.",
  backchannelLogoutNotHttps:
    "Die Back-Channel-Logout-URL muss https verwenden (http nur mit einer Loopback-Adresse: localhost, 127.0.0.1, [::1]).",
  localhostTrusted: "Eine Anwendung auf localhost kann nicht als vertrauenswürdig gelten.",
  nameTaken: "Eine Anwendung namens „{{name}}“ gibt es bereits.",
  clientIdTaken: "Die Client-Kennung {{id}} ist bereits vergeben.",
  noSuchName: "Eine Anwendung namens „{{name}}“ gibt es nicht.",
  invalidKey: "„{{key}}“ ist kein gültiges Feld.",
  unknownClientId: "Die Client-Kennung {{id}} ist unbekannt.",
  emptyName: "Der Name darf nicht leer sein.",
  nameTooLong: "Der Name darf höchstens {{max}} Zeichen lang sein.",
  emptyRedirect: "Die Weiterleitungsadresse darf nicht leer sein.",
  invalidRedirectUrl: "Die Weiterleitungsadresse muss eine gültige URL sein.",
  nameExists: "Eine Anwendung namens „{{name}}“ gibt es bereits.",
  noSuchClient: "Diese Anwendung gibt es nicht (mehr).",
};
