import { STREAM_SETTING_TYPES, type StreamSettings } from "../../../activity/domain/stream-settings.js";
import type { MessageKey, Translator } from "../../../i18n/index.js";
import { html, type SafeHtml } from "../../html.js";
import { translatedHtml } from "../../pages/translated-html.js";

/** The personal page's activity stream section: one checkbox per type the stream can list. */
export function streamSettingsSection(
  translator: Translator,
  model: { action: string; settings: StreamSettings; csrfToken: string; flash: SafeHtml | undefined },
): SafeHtml {
  const { t } = translator;
  const stream = html`<a href="/index.php/apps/activity/">${t("pages:activitySettings.streamLink")}</a>`;
  return html`<h2>${t("pages:activitySettings.heading")}</h2>
<p class="muted">${translatedHtml(translator, "pages:activitySettings.intro", { stream })}</p>
${model.flash ?? ""}
<form method="post" action="${model.action}" id="activity-stream-settings">
<input type="hidden" name="requesttoken" value="${model.csrfToken}">
<fieldset class="plain"><legend class="visually-hidden">${t("pages:activitySettings.heading")}</legend>${STREAM_SETTING_TYPES.map(
    (s) =>
      html`<label class="check" for="stream-${s.type}"><input type="checkbox" id="stream-${s.type}" name="stream_${s.type}" value="1"${model.settings[s.type] ? html` checked` : ""}> ${t(`pages:activityType.${s.type}` as MessageKey)}</label>`,
  )}</fieldset>
<div class="actions"><button type="submit">${t("pages:activitySettings.save")}</button></div>
</form>`;
}
