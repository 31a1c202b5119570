import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../../accounts/authentication.js";
import { checkHostSetting } from "../../../config/host-setting-check.js";
import { type HostSettingName, hostSettingDefinitions, isHostSettingName } from "../../../config/host-settings.js";
import { ConfigurationError } from "../../../config/setting.js";
import { userTranslator } from "../../i18n.js";
import { ADMIN_FORM, guarded } from "../../plugins/route-guards.js";
import { answerInSection, formField } from "../page.js";
import { redirectWithFlash } from "../settings-flash.js";
import { type FormValues, SETTINGS_PAGES } from "../settings-sections.js";
import { hostSettingsSection, shownValue } from "../views/host-settings.js";
import { outcomeParagraph } from "../views/messages.js";

const SECTION_ID = "host-settings";
const FORM_PATH = SETTINGS_PAGES.settings.path;
const SECTION = { page: "settings", sectionId: SECTION_ID } as const;
const ERROR_ID = "host-settings-error";

/**
 * Settings the console shows but does not change, and the occ command that does: maintenance mode
 * answers 503 to every page, this one included, so the page could switch it on but never off.
 */
const READ_ONLY: Partial<Record<HostSettingName, string>> = {
  maintenance: "./occ maintenance:mode --on|--off",
};

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
      const shown = names.map((name) => ({
        name,
        value: settings.get(name),
        stored: settings.getStored(name) !== undefined,
        readOnly: READ_ONLY[name],
        refused: formValues?.name === name ? { value: formValues.value ?? "", message: formValues.message ?? "" } : undefined,
      }));
      const problem = settings.problem();
      return hostSettingsSection(t, { formPath: FORM_PATH, file: settings.file, problem, settings: shown, csrfToken, flash });
    },
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

/** The page again, 400, with the refusal at the top and at the setting, its form as sent. */
function refuse(request: FastifyRequest, reply: FastifyReply, principal: Principal, name: string, reason: string) {
  const { t } = userTranslator(request, principal);
  const formValues: FormValues = { name, value: formField(request, "value") ?? "", message: reason };
  const text = `${t("console:settings.refused", { name })} ${reason}`;
  return answerInSection(request, reply, principal, { ...SECTION, ok: false, text, id: ERROR_ID, role: "alert", formValues });
}

/** The setting the URL names, when the page may change it. */
function changeable(request: FastifyRequest): HostSettingName | undefined {
  const name = (request.params as { name: string }).name;
  return isHostSettingName(name) && READ_ONLY[name] === undefined ? name : undefined;
}

function unknown(request: FastifyRequest, reply: FastifyReply) {
  const { t } = userTranslator(request, request.principal);
  const name = (request.params as { name: string }).name;
  const text = t("console:settings.unknown", { name });
  return answerInSection(request, reply, request.principal, {
    ...SECTION,
    ok: false,
    text,
    id: ERROR_ID,
    role: "alert",
    status: 404,
  });
}

function done(request: FastifyRequest, reply: FastifyReply, principal: Principal, text: string) {
  return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.settings.path, {
    sectionId: SECTION_ID,
    message: outcomeParagraph(true, text, "host-settings-notice", "status"),
  });
}
