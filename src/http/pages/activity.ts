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
import { safeLink } from "../../security/same-origin.js";
import { html, type SafeHtml } from "../html.js";

/** A collection on the page: the first 3 items, then " and N more" (issue 4). */
export const COLLECTION_SHOWN = 3;

function parameterHtml(parameter: Parameter, context: RenderContext): SafeHtml {
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
      const parts = shown.map((item) => parameterHtml(item, context));
      if (items.length > COLLECTION_SHOWN) {
        const rest = items.slice(COLLECTION_SHOWN).map((item) => parameterPlain(item, context));
        return html`<span class="collection">${joinHtml(parts, ", ")} and <span class="more" title="${rest.join(", ")}">${String(items.length - COLLECTION_SHOWN)} more</span></span>`;
      }
      const last = parts.pop();
      return parts.length === 0
        ? html`<span class="collection">${last}</span>`
        : html`<span class="collection">${joinHtml(parts, ", ")} and ${last}</span>`;
    }
  }
}

function joinHtml(parts: SafeHtml[], separator: string): SafeHtml[] {
  return parts.flatMap((part, i) => (i === 0 ? [part] : [html`${separator}`, part]));
}

function segmentsHtml(segments: readonly Segment[], context: RenderContext): SafeHtml[] {
  return segments.map((s) => ("text" in s ? html`${s.text}` : parameterHtml(s.parameter, context)));
}

export interface StreamView {
  filters: FilterDefinition[];
  current: string;
  entries: StreamEntry[];
  context: RenderContext;
  /** Relative URL of the next (older) page, built from the API's own paging. */
  olderUrl: string | undefined;
  notice?: string | undefined;
}

const STYLE = html`<style>
ul.activity-filters{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4rem 1rem}
ul.activity-filters a.active{font-weight:bold;text-decoration:none;color:#1d2d3e}
ol.activity-stream{list-style:none;padding:0}
ol.activity-stream li{display:flex;gap:.7rem;padding:.6rem 0;border-bottom:1px solid #eef1f4}
ol.activity-stream img{width:22px;height:22px;margin-top:.1rem}
.activity-time{color:#5f6b77;font-size:.85rem}
.activity-message{color:#3a4855;font-size:.9rem}
</style>`;

export function activityStreamBody(view: StreamView): SafeHtml {
  const nav = html`<ul class="activity-filters">${view.filters.map(
    (f) =>
      html`<li><a href="/index.php/apps/activity/${f.id}"${f.id === view.current ? html` class="active" aria-current="page"` : ""}>${f.name}</a></li>`,
  )}</ul>`;
  const items = view.entries.map(({ element, subject, message }) => {
    // Rows written before the link rule was tightened pass the same rule again here.
    const link = safeLink(element.link) ?? "";
    return html`<li data-activity-id="${String(element.activity_id)}"><img src="${element.icon}" alt="">
<div><div class="activity-subject">${segmentsHtml(subject, view.context)}</div>
${message.length > 0 ? html`<div class="activity-message">${segmentsHtml(message, view.context)}</div>` : ""}
<div class="activity-time"><time datetime="${element.datetime}">${element.datetime.replace("T", " ").slice(0, 16)} UTC</time>${
      link ? html` · <a href="${link}">open</a>` : ""
    }</div></div></li>`;
  });
  return html`${STYLE}<h1>Activity</h1>${nav}
${view.notice ? html`<p class="notice">${view.notice}</p>` : ""}
${
  view.entries.length === 0 && !view.notice
    ? html`<p class="muted" id="activity-empty">No activity yet.</p>`
    : html`<ol class="activity-stream" id="activity-stream">${items}</ol>`
}
${view.olderUrl ? html`<p><a id="activity-older" href="${view.olderUrl}">Older activities</a></p>` : ""}`;
}
