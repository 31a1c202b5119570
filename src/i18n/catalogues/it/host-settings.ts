import type { hostSettings as source } from "../en/host-settings.js";
import type { Messages } from "../types.js";

export const hostSettings: Messages<typeof source> = {
  "description.overwrite.cli.url":
    "URL di base canonico (ad es. https://cloud.example.com); ogni URL assoluto costruito dal server lo usa.",
  "description.token_auth_enforced":
    "Se true, HTTP Basic con la password dell’account viene rifiutato; le password per le app e i token funzionano ancora.",
  "description.twofactor_enforced":
    "Se true, ogni utente deve avere un secondo fattore: chi non ne ha uno viene guidato a configurarlo subito dopo la password (./occ twofactorauth:enforce).",
  "description.allow_user_to_change_display_name":
    "Se false (come in ownCloud), gli utenti non possono cambiare il proprio nome completo né l’email nella pagina personale.",
  "description.maintenance": "Se true, ogni endpoint tranne status.php risponde 503.",
  "description.session.lifetime": "Secondi di durata di una sessione di accesso senza attività.",
  "description.oauth2.refresh_token_lifetime":
    "Secondi di validità di un token di aggiornamento OAuth, contati da ogni rotazione (predefinito 90 giorni).",
  "description.oauth2.refresh_reuse_grace":
    "Secondi dopo un aggiornamento durante i quali lo stesso token di aggiornamento (già ruotato) riceve di nuovo la stessa nuova coppia, per i client che hanno perso la risposta; 0 = ogni riuso revoca l’autorizzazione.",
  "description.oauth2.cleanup_interval":
    "Secondi tra le esecuzioni del job oauth2:cleanup, che elimina codici e token una settimana dopo la scadenza.",
  "description.oidc.key_grace_period":
    "Secondi in cui una chiave di firma OpenID Connect sostituita da ./occ oidc:rotate-key resta pubblicata (JWKS), così i token ID che ha firmato restano verificabili (predefinito 7 giorni).",
  "description.oidc.root_discovery":
    "Se true, /.well-known/openid-configuration risponde anche alla radice. Disattivato per impostazione predefinita: il client desktop di ownCloud passa alla modalità OIDC quando trova quel documento.",
  "description.oidc.dynamic_registration":
    "Registrazione dinamica dei client (RFC 7591) su /index.php/apps/oauth2/api/v1/register: off (predefinito), oppure loopback: le applicazioni native con URI di reindirizzamento loopback (http://127.0.0.1, http://[::1], http://localhost, qualsiasi porta) possono registrarsi da sole, come il client desktop di ownCloud nella modalità OpenID Connect.",
  "description.cors.allowed-domains":
    "Origini separate da virgole i cui browser possono chiamare gli endpoint OAuth del token e di UserInfo (CORS).",
  "description.default_language":
    "Lingua delle pagine e dei testi delle attività per chi non ha una lingua propria né un Accept-Language che abbiamo: en, de, fr, es, it o nl (vuoto = inglese).",
  "description.activity_expire_days":
    "Giorni in cui un’attività resta nel flusso; un job giornaliero (e ./occ activity:expire) elimina quelle più vecchie.",
  "description.oauth2.new_clients_allowed_groups":
    "I gruppi ammessi con cui parte un nuovo client OAuth2, separati da virgole (per esempio admin: negato per impostazione predefinita); vuoto: chiunque può usarlo, come in ownCloud.",
  "description.audit.retention_days":
    "Giorni per cui un evento di controllo (accessi, modifiche amministrative) viene conservato; un’attività giornaliera elimina quelli più vecchi.",
  "description.activity.file_log":
    "Percorso assoluto del log di accesso JSON keystream_files del proxy (deploy/nginx/keystream-files-log.conf); ogni nodo segue il proprio e trasforma le scritture WebDAV riuscite in attività sui file. Vuoto: disattivato.",
};
