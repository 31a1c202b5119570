import type { Translator } from "../../../i18n/index.js";
import type { AddressBucketState } from "../../../security/address-throttles.js";
import { html, type SafeHtml } from "../../html.js";
import { formatDate } from "./format.js";

/** The security area's throttled addresses, each with the button that lifts it. */
export function lockoutsSection(
  translator: Translator,
  model: {
    failing: ReadonlyArray<AddressBucketState & { lastFailureAt: number }>;
    /** Where the lift button posts. */
    resetPath: string;
    csrfToken: string;
    flash: SafeHtml | undefined;
  },
): SafeHtml {
  const { t } = translator;
  const { failing, csrfToken } = model;
  const label = {
    address: t("settings:lockouts.address"),
    throttle: t("settings:lockouts.throttle"),
    failures: t("settings:lockouts.failures"),
    lastFailure: t("settings:lockouts.lastFailure"),
    state: t("settings:lockouts.state"),
  };
  const state = (lockedSeconds: number, delayMs: number) =>
    lockedSeconds > 0
      ? t("settings:lockouts.lockedFor", { minutes: Math.ceil(lockedSeconds / 60) })
      : t("settings:lockouts.delayed", { seconds: Math.ceil(delayMs / 1000) });
  return html`<h2>${t("settings:lockouts.title")}</h2>
<p class="muted">${t("settings:lockouts.intro")}</p>
${model.flash ?? ""}
${
  failing.length === 0
    ? html`<p class="muted" id="lockout-list">${t("settings:lockouts.none")}</p>`
    : html`<table class="responsive" id="lockout-list"><thead><tr><th scope="col">${label.address}</th><th scope="col">${label.throttle}</th><th scope="col">${label.failures}</th><th scope="col">${label.lastFailure}</th><th scope="col">${label.state}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${failing.map(
  (row) =>
    html`<tr><td data-label="${label.address}" class="wrap-anywhere">${row.countedAs}</td><td data-label="${label.throttle}">${t(`settings:lockouts.throttle.${row.namespace}` as "settings:lockouts.throttle.login")}</td><td data-label="${label.failures}">${row.failures}</td><td data-label="${label.lastFailure}">${formatDate(translator, row.lastFailureAt)}</td><td data-label="${label.state}">${state(row.lockedSeconds, row.delayMs)}</td><td class="actions-cell"><form method="post" action="${model.resetPath}"><input type="hidden" name="requesttoken" value="${csrfToken}"><input type="hidden" name="address" value="${row.countedAs}"><button type="submit" class="small" aria-label="${t("settings:lockouts.liftNamed", { address: row.countedAs })}">${t("settings:lockouts.lift")}</button></form></td></tr>`,
)}
</tbody></table>`
}`;
}
