import type { MessageKey, Translator } from "../../../i18n/index.js";
import { NOTIFICATION_SWITCHES, type NotificationSwitch } from "../../../notifications/domain/kinds.js";
import { html, type SafeHtml } from "../../html.js";

/** The personal page's notification section: one switch per kind of notification. */
export function notificationSwitchesSection(
  t: Translator["t"],
  model: { action: string; on: Readonly<Record<NotificationSwitch, boolean>>; csrfToken: string; flash: SafeHtml | undefined },
): SafeHtml {
  return html`<h2>${t("notifications:settings.title")}</h2>
<p class="muted">${t("notifications:settings.intro")}</p>
${model.flash ?? ""}
<form method="post" action="${model.action}" id="notification-settings">
<input type="hidden" name="requesttoken" value="${model.csrfToken}">
<fieldset class="plain"><legend>${t("notifications:settings.legend")}</legend>${NOTIFICATION_SWITCHES.map(
    (name) =>
      html`<label class="check" for="notify-${name}"><input type="checkbox" id="notify-${name}" name="notify_${name}" value="1"${model.on[name] ? html` checked` : ""}> ${t(`notifications:settings.switch.${name}` as MessageKey)}</label>`,
  )}</fieldset>
<div class="actions"><button type="submit">${t("notifications:settings.save")}</button></div>
</form>`;
}
