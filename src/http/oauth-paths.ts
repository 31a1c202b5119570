/**
 * The paths of the OAuth 2.0 service and the OpenID Connect endpoints, under ownCloud's oauth2 app
 * (docs/upstream/owncloud-oauth2.md): the routes serve them, the metadata document (RFC 8414 §2)
 * names them.
 */

export const AUTHORIZE_PATH = "/index.php/apps/oauth2/authorize";
export const AUTHORIZATION_SUCCESSFUL_PATH = "/index.php/apps/oauth2/authorization-successful";

export const API_PREFIX = "/index.php/apps/oauth2/api/v1";
export const TOKEN_PATH = `${API_PREFIX}/token`;
export const USERINFO_PATH = `${API_PREFIX}/userinfo`;
export const REVOCATION_PATH = `${API_PREFIX}/revoke`;
export const INTROSPECTION_PATH = `${API_PREFIX}/introspect`;
/** RFC 8628 §3.1: beside the token endpoint. */
export const DEVICE_AUTHORIZATION_PATH = `${API_PREFIX}/device_authorization`;
export const REGISTRATION_PATH = `${API_PREFIX}/register`;

export const JWKS_PATH = "/index.php/apps/oauth2/jwks";
export const END_SESSION_PATH = "/index.php/apps/oauth2/end-session";
