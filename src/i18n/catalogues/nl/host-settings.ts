import type { hostSettings as source } from "../en/host-settings.js";
import type { Messages } from "../types.js";

export const hostSettings: Messages<typeof source> = {
  "description.overwrite.cli.url":
    "Canonieke basis-URL (bijv. https://cloud.example.com); elke absolute URL die de server maakt, gebruikt die.",
  "description.token_auth_enforced":
    "Bij true wordt HTTP Basic met het accountwachtwoord geweigerd; app-wachtwoorden en tokens werken nog.",
  "description.twofactor_enforced":
    "Bij true moet elke gebruiker een tweede factor hebben: wie er geen heeft, wordt direct na het wachtwoord naar het instellen ervan geleid (./occ twofactorauth:enforce).",
  "description.allow_user_to_change_display_name":
    "Bij false (zoals in ownCloud) kunnen gebruikers hun volledige naam en e-mailadres niet wijzigen op de persoonlijke pagina.",
  "description.maintenance": "Bij true antwoordt elk eindpunt behalve status.php met 503.",
  "description.session.lifetime": "Seconden dat een aanmeldsessie zonder activiteit duurt.",
  "description.oauth2.refresh_token_lifetime":
    "Seconden dat een OAuth-vernieuwingstoken geldig is, geteld vanaf elke rotatie (standaard 90 dagen).",
  "description.oauth2.refresh_reuse_grace":
    "Seconden na een vernieuwing waarin hetzelfde (al geroteerde) vernieuwingstoken opnieuw hetzelfde nieuwe paar krijgt, voor clients die het antwoord kwijtraakten; 0 = elk hergebruik trekt de autorisatie in.",
  "description.oauth2.cleanup_interval":
    "Seconden tussen de runs van de taak oauth2:cleanup, die codes en tokens een week na het verlopen verwijdert.",
  "description.oidc.key_grace_period":
    "Seconden dat een OpenID Connect-ondertekeningssleutel die door ./occ oidc:rotate-key is vervangen, gepubliceerd blijft (JWKS), zodat de ID-tokens die hij ondertekende nog te verifiëren zijn (standaard 7 dagen).",
  "description.oidc.root_discovery":
    "Bij true antwoordt /.well-known/openid-configuration ook in de root. Standaard uit: de ownCloud-desktopclient schakelt over naar zijn OIDC-modus als hij dat document vindt.",
  "description.oidc.dynamic_registration":
    "Dynamische clientregistratie (RFC 7591) op /index.php/apps/oauth2/api/v1/register: off (standaard), of loopback: native apps met loopback-redirect-URI's (http://127.0.0.1, http://[::1], http://localhost, elke poort) mogen zichzelf registreren, zoals de ownCloud-desktopclient in zijn OpenID Connect-modus.",
  "description.cors.allowed-domains":
    "Kommagescheiden origins waarvan de browsers de OAuth-eindpunten voor token en UserInfo mogen aanroepen (CORS).",
  "description.default_language":
    "Taal van pagina's en activiteitsteksten voor wie geen eigen taal heeft en geen Accept-Language die wij hebben: en, de, fr, es, it of nl (leeg = Engels).",
  "description.activity_expire_days":
    "Dagen dat een activiteit in de stroom blijft; een dagelijkse taak (en ./occ activity:expire) verwijdert oudere.",
  "description.oauth2.new_clients_allowed_groups":
    "De toegestane groepen waarmee een nieuwe OAuth2-client begint, door komma’s gescheiden (bijvoorbeeld admin: standaard geweigerd); leeg: iedereen mag hem gebruiken, zoals in ownCloud.",
  "description.audit.retention_days":
    "Dagen dat een auditgebeurtenis (aanmeldingen, beheerwijzigingen) wordt bewaard; een dagelijkse taak verwijdert oudere.",
  "description.activity.file_log":
    "Absoluut pad van het JSON-toegangslog keystream_files van de proxy (deploy/nginx/keystream-files-log.conf); elk knooppunt volgt zijn eigen log en maakt van geslaagde WebDAV-schrijfacties bestandsactiviteiten. Leeg: uit.",
};
