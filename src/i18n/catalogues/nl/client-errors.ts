import type { clientErrors as source } from "../en/client-errors.js";
import type { Messages } from "../types.js";

export const clientErrors: Messages<typeof source> = {
  clientIdTooShort: "De client-ID moet minstens {{min}} tekens lang zijn.",
  secretTooShort: "Het clientgeheim moet minstens {{min}} tekens lang zijn.",
  invalidRedirect: "Het doorverwijsadres is ongeldig.",
  redirectWithFragment: "Het doorverwijsadres mag geen fragment (#) bevatten.",
  redirectWithUserinfo: "Het doorverwijsadres mag geen gebruikersnaam of wachtwoord (user:password@) bevatten.",
  allowSubdomainsNotBoolean: "Vul true of false in voor allowed-sub-domains.",
  trustedNotBoolean: "Vul true of false in voor trusted.",
  resourceServerNotBoolean: "Vul true of false in voor resource-server.",
  accountAccessNotBoolean: "Vul true of false in voor account-access.",
  unknownScope: "Onbekende scope {{scope}}; de scopes zijn: {{known}}.",
  invalidPostLogoutRedirect: "Het doorverwijsadres na afmelden is ongeldig.",
  invalidBackchannelLogout: "De back-channel-afmeldings-URL is ongeldig: een absolute http- of https-URL zonder fragment (#).",
  backchannelLogoutNotHttps:
    "De back-channel-afmeldings-URL moet https gebruiken (http alleen op een loopbackadres: localhost, 127.0.0.1, [::1]).",
  localhostTrusted: "Een toepassing op localhost kan niet als vertrouwd gelden.",
  nameTaken: "Er bestaat al een toepassing met de naam ‘{{name}}’.",
  clientIdTaken: "De client-ID {{id}} is al in gebruik.",
  noSuchName: "Er bestaat geen toepassing met de naam ‘{{name}}’.",
  invalidKey: "‘{{key}}’ is geen geldig veld.",
  unknownClientId: "De client-ID {{id}} is onbekend.",
  emptyName: "De naam mag niet leeg zijn.",
  nameTooLong: "De naam mag hoogstens {{max}} tekens lang zijn.",
  emptyRedirect: "Het doorverwijsadres mag niet leeg zijn.",
  invalidRedirectUrl: "Het doorverwijsadres moet een geldige URL zijn.",
  nameExists: "Er bestaat al een toepassing met de naam ‘{{name}}’.",
  noSuchClient: "Deze toepassing bestaat niet (meer).",
};
