import type { clientErrors as source } from "../en/client-errors.js";
import type { Messages } from "../types.js";

export const clientErrors: Messages<typeof source> = {
  clientIdTooShort: "L’identifiant client doit compter au moins {{min}} caractères.",
  secretTooShort: "Le secret client doit compter au moins {{min}} caractères.",
  invalidRedirect: "L’adresse de redirection n’est pas valide.",
  redirectWithFragment: "L’adresse de redirection ne doit pas contenir de fragment (#).",
  redirectWithUserinfo: "L’adresse de redirection ne doit contenir ni nom d’utilisateur ni mot de passe (user:password@).",
  allowSubdomainsNotBoolean: "Indiquez true ou false pour allowed-sub-domains.",
  trustedNotBoolean: "Indiquez true ou false pour trusted.",
  resourceServerNotBoolean: "Indiquez true ou false pour resource-server.",
  accountAccessNotBoolean: "Indiquez true ou false pour account-access.",
  unknownScope: "Portée inconnue {{scope}} ; les portées sont : {{known}}.",
  invalidPostLogoutRedirect: "L’adresse de redirection après déconnexion n’est pas valide.",
  invalidBackchannelLogout:
    "L’URL de déconnexion par canal arrière n’est pas valide : une URL http ou https absolue, sans fragment (#).",
  backchannelLogoutNotHttps:
    "L’URL de déconnexion par canal arrière doit utiliser https (http seulement sur une adresse de bouclage : localhost, 127.0.0.1, [::1]).",
  localhostTrusted: "Une application sur localhost ne peut pas être de confiance.",
  nameTaken: "Une application nommée « {{name}} » existe déjà.",
  clientIdTaken: "L’identifiant client {{id}} est déjà utilisé.",
  noSuchName: "Aucune application ne s’appelle « {{name}} ».",
  invalidKey: "« {{key}} » n’est pas un champ valide.",
  unknownClientId: "L’identifiant client {{id}} est inconnu.",
  emptyName: "Le nom ne doit pas être vide.",
  nameTooLong: "Le nom doit compter au plus {{max}} caractères.",
  emptyRedirect: "L’adresse de redirection ne doit pas être vide.",
  invalidRedirectUrl: "L’adresse de redirection doit être une URL valide.",
  nameExists: "Une application nommée « {{name}} » existe déjà.",
  noSuchClient: "Cette application n’existe pas (ou plus).",
};
