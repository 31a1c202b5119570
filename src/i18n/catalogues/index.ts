import type { Language } from "../languages.js";
import { accountErrors as deAccountErrors } from "./de/account-errors.js";
import { activity as deActivity } from "./de/activity.js";
import { audit as deAudit } from "./de/audit.js";
import { clientErrors as deClientErrors } from "./de/client-errors.js";
import { adminConsole as deConsole } from "./de/console.js";
import { device as deDevice } from "./de/device.js";
import { groups as deGroups } from "./de/groups.js";
import { hostSettings as deHostSettings } from "./de/host-settings.js";
import { loginFlow as deLoginFlow } from "./de/login-flow.js";
import { notifications as deNotifications } from "./de/notifications.js";
import { pages as dePages } from "./de/pages.js";
import { passwordConfirmation as dePasswordConfirmation } from "./de/password-confirmation.js";
import { secondFactor as deSecondFactor } from "./de/second-factor.js";
import { settings as deSettings } from "./de/settings.js";
import { accountErrors as enAccountErrors } from "./en/account-errors.js";
import { activity as enActivity } from "./en/activity.js";
import { audit as enAudit } from "./en/audit.js";
import { clientErrors as enClientErrors } from "./en/client-errors.js";
import { adminConsole as enConsole } from "./en/console.js";
import { device as enDevice } from "./en/device.js";
import { groups as enGroups } from "./en/groups.js";
import { hostSettings as enHostSettings } from "./en/host-settings.js";
import { loginFlow as enLoginFlow } from "./en/login-flow.js";
import { notifications as enNotifications } from "./en/notifications.js";
import { pages as enPages } from "./en/pages.js";
import { passwordConfirmation as enPasswordConfirmation } from "./en/password-confirmation.js";
import { secondFactor as enSecondFactor } from "./en/second-factor.js";
import { settings as enSettings } from "./en/settings.js";
import { accountErrors as esAccountErrors } from "./es/account-errors.js";
import { activity as esActivity } from "./es/activity.js";
import { audit as esAudit } from "./es/audit.js";
import { clientErrors as esClientErrors } from "./es/client-errors.js";
import { adminConsole as esConsole } from "./es/console.js";
import { device as esDevice } from "./es/device.js";
import { groups as esGroups } from "./es/groups.js";
import { hostSettings as esHostSettings } from "./es/host-settings.js";
import { loginFlow as esLoginFlow } from "./es/login-flow.js";
import { notifications as esNotifications } from "./es/notifications.js";
import { pages as esPages } from "./es/pages.js";
import { passwordConfirmation as esPasswordConfirmation } from "./es/password-confirmation.js";
import { secondFactor as esSecondFactor } from "./es/second-factor.js";
import { settings as esSettings } from "./es/settings.js";
import { accountErrors as frAccountErrors } from "./fr/account-errors.js";
import { activity as frActivity } from "./fr/activity.js";
import { audit as frAudit } from "./fr/audit.js";
import { clientErrors as frClientErrors } from "./fr/client-errors.js";
import { adminConsole as frConsole } from "./fr/console.js";
import { device as frDevice } from "./fr/device.js";
import { groups as frGroups } from "./fr/groups.js";
import { hostSettings as frHostSettings } from "./fr/host-settings.js";
import { loginFlow as frLoginFlow } from "./fr/login-flow.js";
import { notifications as frNotifications } from "./fr/notifications.js";
import { pages as frPages } from "./fr/pages.js";
import { passwordConfirmation as frPasswordConfirmation } from "./fr/password-confirmation.js";
import { secondFactor as frSecondFactor } from "./fr/second-factor.js";
import { settings as frSettings } from "./fr/settings.js";
import { accountErrors as itAccountErrors } from "./it/account-errors.js";
import { activity as itActivity } from "./it/activity.js";
import { audit as itAudit } from "./it/audit.js";
import { clientErrors as itClientErrors } from "./it/client-errors.js";
import { adminConsole as itConsole } from "./it/console.js";
import { device as itDevice } from "./it/device.js";
import { groups as itGroups } from "./it/groups.js";
import { hostSettings as itHostSettings } from "./it/host-settings.js";
import { loginFlow as itLoginFlow } from "./it/login-flow.js";
import { notifications as itNotifications } from "./it/notifications.js";
import { pages as itPages } from "./it/pages.js";
import { passwordConfirmation as itPasswordConfirmation } from "./it/password-confirmation.js";
import { secondFactor as itSecondFactor } from "./it/second-factor.js";
import { settings as itSettings } from "./it/settings.js";
import { accountErrors as nlAccountErrors } from "./nl/account-errors.js";
import { activity as nlActivity } from "./nl/activity.js";
import { audit as nlAudit } from "./nl/audit.js";
import { clientErrors as nlClientErrors } from "./nl/client-errors.js";
import { adminConsole as nlConsole } from "./nl/console.js";
import { device as nlDevice } from "./nl/device.js";
import { groups as nlGroups } from "./nl/groups.js";
import { hostSettings as nlHostSettings } from "./nl/host-settings.js";
import { loginFlow as nlLoginFlow } from "./nl/login-flow.js";
import { notifications as nlNotifications } from "./nl/notifications.js";
import { pages as nlPages } from "./nl/pages.js";
import { passwordConfirmation as nlPasswordConfirmation } from "./nl/password-confirmation.js";
import { secondFactor as nlSecondFactor } from "./nl/second-factor.js";
import { settings as nlSettings } from "./nl/settings.js";

/**
 * Every catalogue, by language and namespace. A namespace is one file per language
 * (`catalogues/<language>/<namespace>.ts`); to add one, write the English file, the five others,
 * and list them here.
 */
export const CATALOGUES = {
  en: {
    pages: enPages,
    activity: enActivity,
    loginFlow: enLoginFlow,
    passwordConfirmation: enPasswordConfirmation,
    secondFactor: enSecondFactor,
    settings: enSettings,
    accountErrors: enAccountErrors,
    clientErrors: enClientErrors,
    device: enDevice,
    notifications: enNotifications,

    audit: enAudit,
    console: enConsole,
    hostSettings: enHostSettings,
    groups: enGroups,
  },
  de: {
    pages: dePages,
    activity: deActivity,
    loginFlow: deLoginFlow,
    passwordConfirmation: dePasswordConfirmation,
    secondFactor: deSecondFactor,
    settings: deSettings,
    accountErrors: deAccountErrors,
    clientErrors: deClientErrors,
    device: deDevice,
    notifications: deNotifications,

    audit: deAudit,
    console: deConsole,
    hostSettings: deHostSettings,
    groups: deGroups,
  },
  fr: {
    pages: frPages,
    activity: frActivity,
    loginFlow: frLoginFlow,
    passwordConfirmation: frPasswordConfirmation,
    secondFactor: frSecondFactor,
    settings: frSettings,
    accountErrors: frAccountErrors,
    clientErrors: frClientErrors,
    device: frDevice,
    notifications: frNotifications,

    audit: frAudit,
    console: frConsole,
    hostSettings: frHostSettings,
    groups: frGroups,
  },
  es: {
    pages: esPages,
    activity: esActivity,
    loginFlow: esLoginFlow,
    passwordConfirmation: esPasswordConfirmation,
    secondFactor: esSecondFactor,
    settings: esSettings,
    accountErrors: esAccountErrors,
    clientErrors: esClientErrors,
    device: esDevice,
    notifications: esNotifications,

    audit: esAudit,
    console: esConsole,
    hostSettings: esHostSettings,
    groups: esGroups,
  },
  it: {
    pages: itPages,
    activity: itActivity,
    loginFlow: itLoginFlow,
    passwordConfirmation: itPasswordConfirmation,
    secondFactor: itSecondFactor,
    settings: itSettings,
    accountErrors: itAccountErrors,
    clientErrors: itClientErrors,
    device: itDevice,
    notifications: itNotifications,

    audit: itAudit,
    console: itConsole,
    hostSettings: itHostSettings,
    groups: itGroups,
  },
  nl: {
    pages: nlPages,
    activity: nlActivity,
    loginFlow: nlLoginFlow,
    passwordConfirmation: nlPasswordConfirmation,
    secondFactor: nlSecondFactor,
    settings: nlSettings,
    accountErrors: nlAccountErrors,
    clientErrors: nlClientErrors,
    device: nlDevice,
    notifications: nlNotifications,

    audit: nlAudit,
    console: nlConsole,
    hostSettings: nlHostSettings,
    groups: nlGroups,
  },
} as const satisfies Record<Language, Record<string, Record<string, string>>>;

export type SourceCatalogue = (typeof CATALOGUES)["en"];
export type Namespace = keyof SourceCatalogue;
