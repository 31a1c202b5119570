import type { StreamEntry } from "../../activity/domain/element.js";
import type { FilterDefinition } from "../../activity/domain/filters.js";
import type { Parameter } from "../../activity/domain/parameters.js";
import {
  fileLink,
  parameterPlain,
  type RenderContext,
  type Segment,
  splitCloudId,
  trimmedPath,
  userDisplayName,
} from "../../activity/domain/prepared-text.js";
import type { MessageKey, Translator } from "../../i18n/index.js";
import { safeLink } from "../../security/same-origin.js";
import { ACTIVITY_LIVE_SCRIPT_PATH } from "../activity-live-script.js";
import { html, type SafeHtml } from "../html.js";

/** A collection on the page: the first 3 items, then " and N more" (docs/upstream/nextcloud-activity.md §6.4). */
export const COLLECTION_SHOWN = 3;

function parameterHtml(parameter: Parameter, context: RenderContext, t: Translator["t"]): SafeHtml {
  switch (parameter.type) {
    case "file":
      return html`<a class="file" href="${fileLink(context.baseUrl, parameter.value)}">${trimmedPath(parameter.value) || "/"}</a>`;
    case "user":
      return html`<strong class="user" title="${parameter.value}">${userDisplayName(parameter.value, context)}</strong>`;
    case "federated-cloud-id": {
      const { user } = splitCloudId(parameter.value);
      return html`<strong class="remote-user" title="${parameter.value}">${user}</strong>`;
    }
    case "parameter":
      return html`<strong>${parameter.value}</strong>`;
    case "collection": {
      const seen = new Set<string>();
      const items = parameter.value.filter((item) => !seen.has(JSON.stringify(item)) && seen.add(JSON.stringify(item)));
      const shown = items.length > COLLECTION_SHOWN ? items.slice(0, COLLECTION_SHOWN) : items;
      const parts = shown.map((item) => parameterHtml(item, context, t));
      if (items.length > COLLECTION_SHOWN) {
        const rest = items.slice(COLLECTION_SHOWN).map((item) => parameterPlain(item, context));
        return html`<span class="collection">${joinHtml(parts, ", ")} ${t("pages:activity.and")} <span class="more" title="${rest.join(", ")}">${t("pages:activity.more", { count: items.length - COLLECTION_SHOWN })}</span></span>`;
      }
      const last = parts.pop();
      return parts.length === 0
        ? html`<span class="collection">${last}</span>`
        : html`<span class="collection">${joinHtml(parts, ", ")} ${t("pages:activity.and")} ${last}</span>`;
    }
  }
}

function joinHtml(parts: SafeHtml[], separator: string): SafeHtml[] {
  return parts.flatMap((part, i) => (i === 0 ? [part] : [html`${separator}`, part]));
}

function segmentsHtml(segments: readonly Segment[], context: RenderContext, t: Translator["t"]): SafeHtml[] {
  return segments.map((s) => ("text" in s ? html`${s.text}` : parameterHtml(s.parameter, context, t)));
}

export interface StreamView {
  translator: Translator;
  filters: FilterDefinition[];
  current: string;
  entries: StreamEntry[];
  context: RenderContext;
  /** Now, for "5 minutes ago" (the services' clock). */
  nowSeconds: number;
  /** Relative URL of the next (older) page, built from the API's own paging. */
  olderUrl: string | undefined;
  notice?: string | undefined;
  /** The first page of a stream updates itself from the push socket (http/activity-live-script.ts). */
  live?: { websocket: string; preAuth: string; pageUrl: string } | undefined;
}

function liveUpdates(live: NonNullable<StreamView["live"]>, t: Translator["t"]): SafeHtml {
  return html`<div id="activity-live" data-websocket="${live.websocket}" data-pre-auth="${live.preAuth}" data-added="${t("pages:activity.live.added")}">
<p id="activity-live-status" class="visually-hidden" role="status" aria-live="polite"></p>
<p id="activity-live-stopped" class="muted" hidden>${t("pages:activity.live.stopped")} <a href="${live.pageUrl}">${t("pages:activity.live.reload")}</a></p>
</div><script src="${ACTIVITY_LIVE_SCRIPT_PATH}"></script>`;
}

/** The filter's name in the reader's language; a filter without a catalogue entry keeps its own. */
function filterName(filter: FilterDefinition, t: Translator["t"]): string {
  const key = `pages:activity.filter.${filter.id}` as MessageKey;
  const name = t(key);
  return name === key || name === `activity.filter.${filter.id}` ? filter.name : name;
}

export function activityStreamBody(view: StreamView): SafeHtml {
  const { t, dates } = view.translator;
  const nav = html`<nav aria-label="${t("pages:activity.filters")}"><ul class="activity-filters">${view.filters.map(
    (f) =>
      html`<li><a href="/index.php/apps/activity/${f.id}"${f.id === view.current ? html` class="active" aria-current="page"` : ""}>${filterName(f, t)}</a></li>`,
  )}</ul></nav>`;
  const items = view.entries.map(({ element, subject, message }) => {
    // A stored link passes the link rule again here, whatever wrote the row.
    const link = safeLink(element.link) ?? "";
    return html`<li data-activity-id="${String(element.activity_id)}"><img src="${element.icon}" alt="">
<div><div class="activity-subject">${segmentsHtml(subject, view.context, t)}</div>
${message.length > 0 ? html`<div class="activity-message">${segmentsHtml(message, view.context, t)}</div>` : ""}
<div class="activity-time"><time datetime="${element.datetime}" title="${dates.dateTime(Date.parse(element.datetime) / 1000)}">${dates.relative(Date.parse(element.datetime) / 1000, view.nowSeconds)}</time>${
      link ? html` · <a href="${link}">${t("pages:activity.open")}</a>` : ""
    }</div></div></li>`;
  });
  return html`<h1>${t("pages:activity.title")}</h1>${nav}
${view.notice ? html`<p class="notice">${view.notice}</p>` : ""}
${
  view.entries.length === 0 && !view.notice
    ? html`<p class="muted" id="activity-empty">${t("pages:activity.empty")}</p>`
    : html`<ol class="activity-stream" id="activity-stream">${items}</ol>`
}
${view.olderUrl ? html`<p><a id="activity-older" href="${view.olderUrl}">${t("pages:activity.older")}</a></p>` : ""}${
  view.live ? liveUpdates(view.live, t) : ""
}`;
}
