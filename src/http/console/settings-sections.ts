import type { FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import type { Translator } from "../../i18n/index.js";
import type { SafeHtml } from "../html.js";

/**
 * The settings pages: the personal one, and the administration console's areas, each its own URL
 * (a section registers on the page it belongs to). `/index.php/settings/admin` leads to the first area.
 */
export const SETTINGS_PAGES = {
  personal: { path: "/index.php/settings/personal", title: "pages:settings.personal.title" },
  users: { path: "/index.php/settings/admin/users", title: "pages:settings.admin.area.users" },
  groups: { path: "/index.php/settings/admin/groups", title: "pages:settings.admin.area.groups" },
  applications: { path: "/index.php/settings/admin/applications", title: "pages:settings.admin.area.applications" },
  security: { path: "/index.php/settings/admin/security", title: "pages:settings.admin.area.security" },
  settings: { path: "/index.php/settings/admin/settings", title: "pages:settings.admin.area.settings" },
} as const;

export type SettingsPageName = keyof typeof SETTINGS_PAGES;

/**
 * A section of the personal or admin settings page. Each module registers its own sections
 * (`app.settingsSections.push(...)`) next to the routes that handle their forms, so the settings
 * page itself never changes when a module is added.
 */
export interface SettingsSection {
  id: string;
  /** The personal page, or the administration console's area (`SETTINGS_PAGES`). */
  page: SettingsPageName;
  /** Lower comes first. */
  order: number;
  render(context: SettingsContext): Promise<SafeHtml>;
}

export interface SettingsContext {
  request: FastifyRequest;
  principal: Principal;
  csrfToken: string;
  /** The reader's language and time zone: every text of a section goes through its `t`. */
  translator: Translator;
  /** `translator.t`, for sections that need only texts. */
  t: Translator["t"];
  /** A one-time message for this section (e.g. a new secret shown once), set by the form handler. */
  flash?: SafeHtml | undefined;
  /** What a refused form of this section was sent with, so the page shows it again to correct. */
  formValues?: FormValues | undefined;
}

/** A submitted form's text fields by name (a checkbox: present when ticked). */
export type FormValues = Readonly<Record<string, string | undefined>>;
