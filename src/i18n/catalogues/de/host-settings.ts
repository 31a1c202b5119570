import type { hostSettings as source } from "../en/host-settings.js";
import type { Messages } from "../types.js";

export const hostSettings: Messages<typeof source> = {
  "description.overwrite.cli.url":
    "Kanonische Basis-URL (z. B. https://cloud.example.com); jede absolute URL, die der Server bildet, verwendet sie.",
  "description.token_auth_enforced":
    "Wenn true, wird HTTP Basic mit dem Kontopasswort abgelehnt; App-Passwörter und Tokens funktionieren weiterhin.",
  "description.twofactor_enforced":
    "Wenn true, muss jeder Benutzer einen zweiten Faktor haben: Wer keinen hat, wird direkt nach dem Passwort zur Einrichtung geführt (./occ twofactorauth:enforce).",
  "description.allow_user_to_change_display_name":
    "Wenn false (wie in ownCloud), können Benutzer ihren vollständigen Namen und ihre E-Mail-Adresse auf der persönlichen Seite nicht ändern.",
  "description.maintenance": "Wenn true, antwortet jeder Endpunkt außer status.php mit 503.",
  "description.session.lifetime": "Sekunden, die eine Anmeldesitzung ohne Aktivität besteht.",
  "description.oauth2.refresh_token_lifetime":
    "Sekunden, die ein OAuth-Refresh-Token gültig ist, gezählt ab jeder Rotation (Standard 90 Tage).",
  "description.oauth2.refresh_reuse_grace":
    "Sekunden nach einer Erneuerung, in denen dasselbe (rotierte) Refresh-Token wieder dasselbe neue Paar erhält, für Clients, die die Antwort verloren haben; 0 = jede Wiederverwendung widerruft die Autorisierung.",
  "description.oauth2.cleanup_interval":
    "Sekunden zwischen den Läufen des Jobs oauth2:cleanup, der Codes und Tokens eine Woche nach ihrem Ablauf löscht.",
  "description.oidc.key_grace_period":
    "Sekunden, die ein von ./occ oidc:rotate-key ersetzter OpenID-Connect-Signaturschlüssel veröffentlicht bleibt (JWKS), damit die von ihm signierten ID-Tokens weiter prüfbar sind (Standard 7 Tage).",
  "description.oidc.root_discovery":
    "Wenn true, antwortet /.well-known/openid-configuration auch an der Wurzel. Standardmäßig aus: Der ownCloud-Desktop-Client wechselt in seinen OIDC-Modus, wenn er dieses Dokument findet.",
  "description.oidc.dynamic_registration":
    "Dynamische Client-Registrierung (RFC 7591) unter /index.php/apps/oauth2/api/v1/register: off (Standard) oder loopback: Native Anwendungen mit Loopback-Weiterleitungs-URIs (http://127.0.0.1, http://[::1], http://localhost, beliebiger Port) dürfen sich selbst registrieren, etwa der ownCloud-Desktop-Client in seinem OpenID-Connect-Modus.",
  "description.cors.allowed-domains":
    "Kommagetrennte Origins, deren Browser die OAuth-Endpunkte für Token und UserInfo aufrufen dürfen (CORS).",
  "description.default_language":
    "Sprache der Seiten und Aktivitätstexte für Personen ohne eigene Sprache und ohne passende Accept-Language: en, de, fr, es, it oder nl (leer = Englisch).",
  "description.activity_expire_days":
    "Tage, die eine Aktivität im Stream bleibt; ein täglicher Job (und ./occ activity:expire) löscht ältere.",
  "description.oauth2.new_clients_allowed_groups":
    "Die erlaubten Gruppen, mit denen ein neuer OAuth2-Client beginnt, durch Kommas getrennt (zum Beispiel admin: standardmäßig verweigert); leer: jeder darf ihn verwenden, wie in ownCloud.",
  "description.audit.retention_days":
    "Tage, die ein Prüfereignis (Anmeldungen, administrative Änderungen) aufbewahrt wird; ein täglicher Job löscht ältere.",
  "description.activity.file_log":
    "Absoluter Pfad des JSON-Zugriffsprotokolls keystream_files des Proxys (deploy/nginx/keystream-files-log.conf); jeder Knoten liest sein eigenes mit und macht aus erfolgreichen WebDAV-Schreibvorgängen Dateiaktivitäten. Leer: aus.",
};
