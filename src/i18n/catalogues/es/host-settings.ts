import type { hostSettings as source } from "../en/host-settings.js";
import type { Messages } from "../types.js";

export const hostSettings: Messages<typeof source> = {
  "description.overwrite.cli.url":
    "URL base canónica (p. ej. https://cloud.example.com); toda URL absoluta que construye el servidor la usa.",
  "description.token_auth_enforced":
    "Si es true, se rechaza HTTP Basic con la contraseña de la cuenta; las contraseñas de aplicación y los tokens siguen funcionando.",
  "description.twofactor_enforced":
    "Si es true, cada usuario debe tener un segundo factor: quien no lo tenga será llevado a configurarlo justo después de la contraseña (./occ twofactorauth:enforce).",
  "description.allow_user_to_change_display_name":
    "Si es false (como en ownCloud), los usuarios no pueden cambiar su nombre completo ni su correo en la página personal.",
  "description.maintenance": "Si es true, todos los puntos de acceso salvo status.php responden 503.",
  "description.session.lifetime": "Segundos que dura una sesión sin actividad.",
  "description.oauth2.refresh_token_lifetime":
    "Segundos de vida de un token de actualización OAuth, contados desde cada rotación (90 días por defecto).",
  "description.oauth2.refresh_reuse_grace":
    "Segundos tras una actualización durante los que el mismo token de actualización (ya rotado) vuelve a recibir el mismo par nuevo, para clientes que perdieron la respuesta; 0 = cualquier reutilización revoca la autorización.",
  "description.oauth2.cleanup_interval":
    "Segundos entre ejecuciones de la tarea oauth2:cleanup, que borra códigos y tokens una semana después de caducar.",
  "description.oidc.key_grace_period":
    "Segundos que una clave de firma de OpenID Connect sustituida por ./occ oidc:rotate-key sigue publicada (JWKS), para que los tokens de identidad que firmó se sigan verificando (7 días por defecto).",
  "description.oidc.root_discovery":
    "Si es true, /.well-known/openid-configuration también responde en la raíz. Desactivado por defecto: el cliente de escritorio de ownCloud pasa a su modo OIDC cuando encuentra ese documento.",
  "description.oidc.dynamic_registration":
    "Registro dinámico de clientes (RFC 7591) en /index.php/apps/oauth2/api/v1/register: off (por defecto), o loopback: las aplicaciones nativas con URI de redirección de bucle local (http://127.0.0.1, http://[::1], http://localhost, cualquier puerto) pueden registrarse solas, como el cliente de escritorio de ownCloud en su modo OpenID Connect.",
  "description.cors.allowed-domains":
    "Orígenes separados por comas cuyos navegadores pueden llamar a los puntos de acceso OAuth de token y UserInfo (CORS).",
  "description.default_language":
    "Idioma de las páginas y de los textos de actividad para quienes no tienen idioma propio ni un Accept-Language que tengamos: en, de, fr, es, it o nl (vacío = inglés).",
  "description.activity_expire_days":
    "Días que una actividad permanece en el flujo; una tarea diaria (y ./occ activity:expire) borra las más antiguas.",
  "description.oauth2.new_clients_allowed_groups":
    "Los grupos permitidos con los que empieza un nuevo cliente OAuth2, separados por comas (por ejemplo admin: denegado por defecto); vacío: todos pueden usarlo, como en ownCloud.",
  "description.audit.retention_days":
    "Días que se conserva un evento de auditoría (inicios de sesión, cambios administrativos); una tarea diaria borra los más antiguos.",
  "description.activity.file_log":
    "Ruta absoluta del registro de acceso JSON keystream_files del proxy (deploy/nginx/keystream-files-log.conf); cada nodo sigue el suyo y convierte las escrituras WebDAV correctas en actividades de archivos. Vacío: desactivado.",
};
