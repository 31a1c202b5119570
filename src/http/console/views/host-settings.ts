import { type HostSettingName, hostSettingDefinitions } from "../../../config/host-settings.js";
import { expectedOf } from "../../../config/setting.js";
import type { Translator } from "../../../i18n/index.js";
import { html, type SafeHtml } from "../../html.js";

type T = Translator["t"];

/** One host setting as the settings area shows it. */
export interface HostSettingView {
  name: HostSettingName;
  value: unknown;
  /** Set in the settings file (else the default applies). */
  stored: boolean;
  /** The occ command that changes a setting the page only shows. */
  readOnly: string | undefined;
  /** A refused change of this setting: the value sent and occ's reason. */
  refused: { value: string; message: string } | undefined;
}

/** A value as occ prints it (`config:list`): JSON, so an empty text shows as "". */
export function shownValue(value: unknown): string {
  return JSON.stringify(value);
}

function settingId(name: string): string {
  return `setting-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}

/** The settings area: every host setting, its value, default and meaning, each with its form. */
export function hostSettingsSection(
  t: T,
  model: {
    /** Where the forms post: `<formPath>/<name>` and `<formPath>/<name>/reset`. */
    formPath: string;
    file: string;
    /** Why the settings file could not be read, when it could not. */
    problem: string | undefined;
    settings: readonly HostSettingView[];
    csrfToken: string;
    flash: SafeHtml | undefined;
  },
): SafeHtml {
  return html`<h2>${t("console:settings.title")}</h2>
${model.flash ?? ""}
<p class="muted">${t("console:settings.intro", { file: model.file })}</p>
${model.problem ? html`<p class="error" id="host-settings-problem">${model.problem}</p>` : ""}
${model.settings.map((setting) => settingBlock(t, model.csrfToken, model.formPath, setting))}`;
}

/** The control for a new value: a choice for booleans and enumerations, else a text field. */
function valueControl(name: HostSettingName, id: string, value: string, refused: boolean): SafeHtml {
  const schema = hostSettingDefinitions[name].schema as { type?: string; enum?: readonly string[] };
  const invalid = refused ? html` aria-invalid="true" aria-describedby="${id}-error"` : html` aria-describedby="${id}-expected"`;
  const choices = schema.type === "boolean" ? ["true", "false"] : schema.enum;
  if (choices) {
    return html`<select id="${id}-value" name="value"${invalid}>${choices.map(
      (choice) => html`<option value="${choice}"${choice === value ? html` selected` : ""}>${choice}</option>`,
    )}</select>`;
  }
  const numeric = schema.type === "integer" ? html` inputmode="numeric"` : "";
  return html`<input type="text" id="${id}-value" name="value" value="${value}"${numeric}${invalid}>`;
}

function settingBlock(t: T, csrfToken: string, formPath: string, setting: HostSettingView): SafeHtml {
  const { name, refused } = setting;
  const current = { value: setting.value, stored: setting.stored };
  const definition = hostSettingDefinitions[name];
  const id = settingId(name);
  const readOnly = setting.readOnly;
  const formValue = refused?.value ?? (typeof current.value === "string" ? current.value : String(current.value));
  const action = `${formPath}/${encodeURIComponent(name)}`;
  const facts = html`<p class="setting-values">${t("console:settings.current")}: <code>${shownValue(current.value)}</code>${current.stored ? "" : html` <span class="muted">(${t("console:settings.isDefault")})</span>`} · ${t("console:settings.default")}: <code>${shownValue(definition.defaultValue)}</code></p>`;
  if (readOnly) {
    return html`<div class="host-setting" id="${id}"><h3><code>${name}</code></h3>
<p>${t(`hostSettings:description.${name}`)}</p>
${facts}<p class="muted">${t("console:settings.readOnly", { command: readOnly })}</p></div>`;
  }
  // One form: Save posts the value; "back to the default" posts the same form to …/reset (formaction).
  return html`<div class="host-setting" id="${id}"><h3><code>${name}</code></h3>
<p>${t(`hostSettings:description.${name}`)}</p>
${facts}<form method="post" action="${action}" class="setting-form">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<div class="setting-field"><label for="${id}-value">${t("console:settings.newValue", { name })}</label>
${valueControl(name, id, formValue, refused !== undefined)}</div>
<div class="setting-buttons"><button type="submit">${t("settings:common.save")}</button>${
    current.stored
      ? html`<button type="submit" class="secondary" formaction="${action}/reset" aria-label="${t("console:settings.resetNamed", { name })}">${t("console:settings.reset")}</button>`
      : ""
  }</div>
${refused ? html`<p class="error" id="${id}-error">${refused.message}</p>` : html`<p class="muted" id="${id}-expected">${t("console:settings.expected", { expected: expectedOf(definition) })}</p>`}
</form></div>`;
}
