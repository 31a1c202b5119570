import type { hostSettings as source } from "../en/host-settings.js";
import type { Messages } from "../types.js";

export const hostSettings: Messages<typeof source> = {
  "description.overwrite.cli.url":
    "URL de base canonique (par ex. https://cloud.example.com) ; toute URL absolue que le serveur construit l’utilise.",
  "description.token_auth_enforced":
    "Si true, HTTP Basic avec le mot de passe du compte est refusé ; les mots de passe d’application et les jetons fonctionnent toujours.",
  "description.twofactor_enforced":
    "Si true, chaque utilisateur doit avoir un second facteur : celui qui n’en a pas est conduit à en configurer un juste après le mot de passe (./occ twofactorauth:enforce).",
  "description.allow_user_to_change_display_name":
    "Si false (comme dans ownCloud), les utilisateurs ne peuvent pas modifier leur nom complet ni leur adresse e-mail sur la page personnelle.",
  "description.maintenance": "Si true, chaque point d’accès sauf status.php répond 503.",
  "description.session.lifetime": "Secondes que dure une session de connexion sans activité.",
  "description.oauth2.refresh_token_lifetime":
    "Secondes de validité d’un jeton de rafraîchissement OAuth, comptées depuis chaque rotation (90 jours par défaut).",
  "description.oauth2.refresh_reuse_grace":
    "Secondes après un rafraîchissement pendant lesquelles le même jeton de rafraîchissement (déjà remplacé) obtient de nouveau la même nouvelle paire, pour les clients qui ont perdu la réponse ; 0 = toute réutilisation révoque l’autorisation.",
  "description.oauth2.cleanup_interval":
    "Secondes entre deux exécutions de la tâche oauth2:cleanup, qui supprime les codes et les jetons une semaine après leur expiration.",
  "description.oidc.key_grace_period":
    "Secondes pendant lesquelles une clé de signature OpenID Connect remplacée par ./occ oidc:rotate-key reste publiée (JWKS), pour que les jetons d’identité qu’elle a signés restent vérifiables (7 jours par défaut).",
  "description.oidc.root_discovery":
    "Si true, /.well-known/openid-configuration répond aussi à la racine. Désactivé par défaut : le client de bureau ownCloud passe en mode OIDC lorsqu’il trouve ce document.",
  "description.oidc.dynamic_registration":
    "Enregistrement dynamique des clients (RFC 7591) sur /index.php/apps/oauth2/api/v1/register : off (par défaut), ou loopback : les applications natives dont les URI de redirection sont en boucle locale (http://127.0.0.1, http://[::1], http://localhost, n’importe quel port) peuvent s’enregistrer elles-mêmes, comme le client de bureau ownCloud en mode OpenID Connect.",
  "description.cors.allowed-domains":
    "Origines, séparées par des virgules, dont les navigateurs peuvent appeler les points d’accès OAuth de jeton et UserInfo (CORS).",
  "description.default_language":
    "Langue des pages et des textes d’activité pour les personnes sans langue propre ni Accept-Language que nous proposons : en, de, fr, es, it ou nl (vide = anglais).",
  "description.activity_expire_days":
    "Jours pendant lesquels une activité reste dans le flux ; une tâche quotidienne (et ./occ activity:expire) supprime les plus anciennes.",
  "description.oauth2.new_clients_allowed_groups":
    "Les groupes autorisés avec lesquels commence un nouveau client OAuth2, séparés par des virgules (par exemple admin : refusé par défaut) ; vide : tout le monde peut l’utiliser, comme dans ownCloud.",
  "description.audit.retention_days":
    "Jours pendant lesquels un événement d’audit (connexions, modifications administratives) est conservé ; une tâche quotidienne supprime les plus anciens.",
  "description.activity.file_log":
    "Chemin absolu du journal d’accès JSON keystream_files du proxy (deploy/nginx/keystream-files-log.conf) ; chaque nœud suit le sien et transforme les écritures WebDAV réussies en activités de fichiers. Vide : désactivé.",
};
