import type { clientErrors as source } from "../en/client-errors.js";
import type { Messages } from "../types.js";

export const clientErrors: Messages<typeof source> = {
  clientIdTooShort: "L’identificativo client deve avere almeno {{min}} caratteri.",
  secretTooShort: "Il segreto client deve avere almeno {{min}} caratteri.",
  invalidRedirect: "L’indirizzo di reindirizzamento non è valido.",
  redirectWithFragment: "L’indirizzo di reindirizzamento non deve contenere un frammento (#).",
  redirectWithUserinfo: "L’indirizzo di reindirizzamento non deve contenere nome utente o password (user:password@).",
  allowSubdomainsNotBoolean: "Indica true o false per allowed-sub-domains.",
  trustedNotBoolean: "Indica true o false per trusted.",
  resourceServerNotBoolean: "Indica true o false per resource-server.",
  accountAccessNotBoolean: "Indica true o false per account-access.",
  unknownScope: "Ambito sconosciuto {{scope}}; gli ambiti sono: {{known}}.",
  invalidPostLogoutRedirect: "L’indirizzo di reindirizzamento dopo la disconnessione non è valido.",
  invalidBackchannelLogout:
    "L’URL di disconnessione back-channel non è valido: deve essere un URL http o https assoluto senza frammento (#).",
  backchannelLogoutNotHttps:
    "L’URL di disconnessione back-channel deve usare https (http solo su un indirizzo di loopback: localhost, 127.0.0.1, [::1]).",
  localhostTrusted: "Un’applicazione su localhost non può essere attendibile.",
  nameTaken: "Esiste già un’applicazione chiamata «{{name}}».",
  clientIdTaken: "L’identificativo client {{id}} è già in uso.",
  noSuchName: "Non esiste alcuna applicazione chiamata «{{name}}».",
  invalidKey: "«{{key}}» non è un campo valido.",
  unknownClientId: "L’identificativo client {{id}} è sconosciuto.",
  emptyName: "Il nome non può essere vuoto.",
  nameTooLong: "Il nome può avere al massimo {{max}} caratteri.",
  emptyRedirect: "L’indirizzo di reindirizzamento non può essere vuoto.",
  invalidRedirectUrl: "L’indirizzo di reindirizzamento deve essere un URL valido.",
  nameExists: "Esiste già un’applicazione chiamata «{{name}}».",
  noSuchClient: "Questa applicazione non esiste (più).",
};
