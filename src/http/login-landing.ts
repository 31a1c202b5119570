/** Where a login without `redirect_url` lands. */
export const DEFAULT_LANDING = "/index.php/settings/personal";
