import type { Translator } from "../../../i18n/index.js";
import { html, type SafeHtml } from "../../html.js";
import { type HeaderUser, layout } from "../../pages/layout.js";
import { COPY_SCRIPT_PATH } from "../../settings-copy-script.js";
import { SETTINGS_PAGES, type SettingsPageName } from "../settings-sections.js";

/** One rendered section of a settings page, the target of its forms' `#id` links. */
export function settingsSection(id: string, body: SafeHtml): SafeHtml {
  return html`<section id="${id}">${body}</section>`;
}

/**
 * A settings page: the personal one, or an area of the administration console with the console's
 * navigation (`areas`, the ones with something to show) above its heading.
 */
export function settingsPageView(
  translator: Translator,
  model: { page: SettingsPageName; user: HeaderUser; areas: readonly SettingsPageName[]; sections: readonly SafeHtml[] },
): SafeHtml {
  const heading = translator.t(SETTINGS_PAGES[model.page].title);
  const admin = model.page !== "personal";
  const title = admin ? `${heading} – ${translator.t("pages:settings.admin.title")}` : heading;
  return layout({
    translator,
    title,
    user: model.user,
    current: admin ? "admin" : "personal",
    body: html`${admin ? adminNavigation(translator, model.areas, model.page) : ""}<h1>${heading}</h1>${model.sections}<script src="${COPY_SCRIPT_PATH}"></script>`,
  });
}

/**
 * A page of the administration console that is not an area's list of sections (one user's page):
 * the area navigation with `area` current, then `heading` and `body`.
 */
export function adminPageView(
  translator: Translator,
  model: { area: SettingsPageName; user: HeaderUser; areas: readonly SettingsPageName[]; heading: string; body: SafeHtml },
): SafeHtml {
  return layout({
    translator,
    title: `${model.heading} – ${translator.t("pages:settings.admin.title")}`,
    user: model.user,
    current: "admin",
    body: html`${adminNavigation(translator, model.areas, model.area)}<h1>${model.heading}</h1>${model.body}<script src="${COPY_SCRIPT_PATH}"></script>`,
  });
}

/** The console's areas, the current one marked for assistive technology. */
function adminNavigation(translator: Translator, areas: readonly SettingsPageName[], current: SettingsPageName): SafeHtml {
  const { t } = translator;
  return html`<nav class="admin-nav" aria-label="${t("pages:settings.admin.title")}"><ul>${areas.map(
    (area) =>
      html`<li><a href="${SETTINGS_PAGES[area].path}"${area === current ? html` aria-current="page"` : ""}>${t(SETTINGS_PAGES[area].title)}</a></li>`,
  )}</ul></nav>`;
}
