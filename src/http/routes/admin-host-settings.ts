import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { checkHostSetting } from "../../config/host-setting-check.js";
import { type HostSettingName, hostSettingDefinitions, isHostSettingName } from "../../config/host-settings.js";
import { ConfigurationError, expectedOf } from "../../config/setting.js";
import type { Translator } from "../../i18n/index.js";
import { html, type SafeHtml } from "../html.js";
import { userTranslator } from "../i18n.js";
import { ADMIN_FORM, guarded } from "../plugins/route-guards.js";
import { redirectWithFlash } from "../settings-flash.js";
import { type FormValues, SETTINGS_PAGES } from "../settings-sections.js";
import { formField, sendSettingsPage } from "./settings.js";

const SECTION_ID = "host-settings";
const FORM_PATH = SETTINGS_PAGES.settings.path;

/**
 * Settings the console shows but does not change, and the occ command that does: maintenance mode
 * answers 503 to every page, this one included, so the page could switch it on but never off.
 */
const READ_ONLY: Partial<Record<HostSettingName, string>> = {
  maintenance: "./occ maintenance:mode --on|--off",
};

/** A value as occ prints it (`config:list`): JSON, so an empty text shows as "". */
function shownValue(value: unknown): string {
  return JSON.stringify(value);
}

function settingId(name: string): string {
  return `setting-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
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

function settingBlock(
  t: Translator["t"],
  csrfToken: string,
  name: HostSettingName,
  current: { value: unknown; stored: boolean },
  refused: { value: string; message: string } | undefined,
): SafeHtml {
  const definition = hostSettingDefinitions[name];
  const id = settingId(name);
  const readOnly = READ_ONLY[name];
  const formValue = refused?.value ?? (typeof current.value === "string" ? current.value : String(current.value));
  const action = `${FORM_PATH}/${encodeURIComponent(name)}`;
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

/**
 * The console's settings area: every host setting (config/host-settings.ts, the declarations
 * `./occ config:system:set` and `config:list` use) with its value, default and meaning, changed
 * or reset here through the same parse and write as occ, so a value is refused here exactly when
 * occ refuses it, with occ's message. After a change the page redirects with a notice at the top
 * (post/redirect/get). No host setting is a secret: the database password is a process setting
 * (config/environment.ts), never shown here.
 */
export async function adminHostSettingsRoutes(app: FastifyInstance): Promise<void> {
  const { settings, log } = app.services;

  app.settingsSections.push({
    id: SECTION_ID,
    page: "settings",
    order: 0,
    render: async ({ csrfToken, flash, formValues, t }) => {
      const names = Object.keys(hostSettingDefinitions) as HostSettingName[];
      const problem = settings.problem();
      return html`<h2>${t("console:settings.title")}</h2>
${flash ?? ""}
<p class="muted">${t("console:settings.intro", { file: settings.file })}</p>
${problem ? html`<p class="error" id="host-settings-problem">${problem}</p>` : ""}
${names.map((name) => {
  const stored = settings.getStored(name);
  const refused = formValues?.name === name ? { value: formValues.value ?? "", message: formValues.message ?? "" } : undefined;
  return settingBlock(t, csrfToken, name, { value: settings.get(name), stored: stored !== undefined }, refused);
})}`;
    },
  });

  /** The page again, 400, with the refusal at the top and at the setting, its form as sent. */
  const refuse = (request: FastifyRequest, reply: FastifyReply, principal: Principal, name: string, reason: string) => {
    const { t } = userTranslator(request, principal);
    const formValues: FormValues = { name, value: formField(request, "value") ?? "", message: reason };
    const message = html`<p class="error" id="host-settings-error" role="alert">${t("console:settings.refused", { name })} ${reason}</p>`;
    return sendSettingsPage(request, reply, principal, "settings", { sectionId: SECTION_ID, message, formValues }, 400);
  };

  /** The setting the URL names, when the page may change it. */
  const changeable = (request: FastifyRequest): HostSettingName | undefined => {
    const name = (request.params as { name: string }).name;
    return isHostSettingName(name) && READ_ONLY[name] === undefined ? name : undefined;
  };

  const unknown = (request: FastifyRequest, reply: FastifyReply) => {
    const { t } = userTranslator(request, request.principal);
    const name = (request.params as { name: string }).name;
    const message = html`<p class="error" id="host-settings-error" role="alert">${t("console:settings.unknown", { name })}</p>`;
    return sendSettingsPage(request, reply, request.principal, "settings", { sectionId: SECTION_ID, message }, 404);
  };

  const done = (request: FastifyRequest, reply: FastifyReply, principal: Principal, text: string) =>
    redirectWithFlash(request, reply, principal, SETTINGS_PAGES.settings.path, {
      sectionId: SECTION_ID,
      message: html`<p class="notice" id="host-settings-notice" role="status">${text}</p>`,
    });

  await app.register(
    guarded(ADMIN_FORM, (forms) => {
      forms.post(`${FORM_PATH}/:name`, async (request, reply) => {
        const { principal } = request;
        const name = changeable(request);
        if (!name) return unknown(request, reply);
        const checked = checkHostSetting(name, formField(request, "value") ?? "");
        if (!checked.ok) return refuse(request, reply, principal, name, checked.message);
        const parsed = checked.value;
        try {
          settings.set(parsed.name, parsed.value);
        } catch (error) {
          if (!(error instanceof ConfigurationError)) throw error;
          return refuse(request, reply, principal, name, error.message);
        }
        log.info(
          { event: "host_setting_changed", name, value: parsed.value, by: principal.user.uid },
          "host setting changed on the admin page",
        );
        const { t } = userTranslator(request, principal);
        return done(request, reply, principal, t("console:settings.changed", { name, value: shownValue(parsed.value) }));
      });

      forms.post(`${FORM_PATH}/:name/reset`, async (request, reply) => {
        const { principal } = request;
        const name = changeable(request);
        if (!name) return unknown(request, reply);
        let removed: boolean;
        try {
          removed = settings.delete(name);
        } catch (error) {
          if (!(error instanceof ConfigurationError)) throw error;
          return refuse(request, reply, principal, name, error.message);
        }
        if (removed) {
          log.info({ event: "host_setting_reset", name, by: principal.user.uid }, "host setting reset on the admin page");
        }
        const { t } = userTranslator(request, principal);
        const value = shownValue(hostSettingDefinitions[name].defaultValue);
        return done(
          request,
          reply,
          principal,
          t(removed ? "console:settings.wasReset" : "console:settings.wasDefault", { name, value }),
        );
      });
    }),
  );
}
