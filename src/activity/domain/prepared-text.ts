import { type MessageKey, supportedLanguage, translatorFor } from "../../i18n/index.js";
import type { CollectionParameter, Parameter, ScalarParameter } from "./parameters.js";
import { DEFAULT_ICON, findTemplate } from "./templates.js";

/**
 * Subject and message text, rendered once into segments and then serialised three ways: the
 * specification's prepared markup (docs/spec/activity-api.md) (`subject_prepared`), today's rich strings (`subject_rich`,
 * docs/upstream/nextcloud-activity.md §6.1) and plain text (legacy API v1, the web page's fallback).
 */
export type Segment = { text: string } | { name: string; parameter: Parameter };

export interface RenderContext {
  /** Absolute base URL (overwrite.cli.url when set). */
  baseUrl: string;
  /** Display name of a local user, if there is one. */
  displayName(uid: string): string | undefined;
  /**
   * The language the texts are rendered in; undefined is English. Everything rendering depends on
   * besides the stored rows is in this context, and every rendering cache keys on it
   * (activity/page-cache.ts).
   */
  language?: string | undefined;
}

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;

function splitTemplate(text: string, bind: (name: string) => Segment | undefined): Segment[] | undefined {
  const segments: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const index = match.index ?? 0;
    const segment = bind(match[1] ?? "");
    if (segment === undefined && /^[A-Za-z]/.test(match[1] ?? "")) return undefined;
    if (index > last) segments.push({ text: text.slice(last, index) });
    segments.push(segment ?? { text: match[0] });
    last = index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}

/**
 * A known (app, subject) uses its template; anything else uses the subject key itself as the
 * text, with `{0}`, `{1}` … standing for its parameters (so events an admin publishes read well).
 * A known template whose parameters are missing falls back the same way.
 */
export function renderSubject(
  app: string,
  subject: string,
  params: readonly Parameter[],
  language?: string | undefined,
): Segment[] {
  const template = findTemplate(app, subject);
  if (template) {
    const text = messages(language).t(`activity:${app}.${subject}` as MessageKey);
    const segments = splitTemplate(text, (name) => {
      const position = template.params[name];
      const parameter = position === undefined ? undefined : params[position];
      return parameter ? { name, parameter } : undefined;
    });
    if (segments) return segments;
  }
  return renderFreeText(subject, params);
}

export function renderFreeText(text: string, params: readonly Parameter[]): Segment[] {
  if (text === "") return [];
  return (
    splitTemplate(text, (name) => {
      const parameter = /^\d+$/.test(name) ? params[Number(name)] : undefined;
      return parameter ? { name: `param${name}`, parameter } : { text: `{${name}}` };
    }) ?? [{ text }]
  );
}

export function iconOf(app: string, subject: string): string {
  return findTemplate(app, subject)?.icon ?? DEFAULT_ICON;
}

// ---- prepared markup (docs/spec/activity-api.md, Markup in prepared texts; docs/upstream/nextcloud-activity.md §6.4) ----

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#039;" };

/** htmlspecialchars(ENT_QUOTES): the escaping upstream applies to attributes and bodies. */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

export function trimmedPath(path: string): string {
  return path.replace(/^\/+|\/+$/g, "");
}

function basename(path: string): string {
  const trimmed = trimmedPath(path);
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/**
 * Where a file can be viewed: the files app at its folder, scrolled to it
 * (docs/upstream/nextcloud-activity.md §6.4).
 */
export function fileLink(baseUrl: string, path: string): string {
  const trimmed = trimmedPath(path);
  const slash = trimmed.lastIndexOf("/");
  const dir = slash < 0 ? "/" : `/${trimmed.slice(0, slash)}`;
  const query = new URLSearchParams({ dir });
  if (trimmed !== "") query.set("scrollto", basename(trimmed));
  return `${baseUrl}/index.php/apps/files/?${query.toString()}`;
}

export function splitCloudId(cloudId: string): { user: string; server: string } {
  const at = cloudId.lastIndexOf("@");
  return at < 0 ? { user: cloudId, server: "" } : { user: cloudId.slice(0, at), server: cloudId.slice(at + 1) };
}

const REMOTE_USER = "remote user";

export function userDisplayName(uid: string, context: RenderContext): string {
  return uid === "" ? REMOTE_USER : (context.displayName(uid) ?? uid);
}

function cloudDisplayName(cloudId: string): string {
  const { user, server } = splitCloudId(cloudId);
  return server === "" ? cloudId : `${user}@…`;
}

function distinct(items: readonly ScalarParameter[]): ScalarParameter[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function parameterMarkup(parameter: Parameter, context: RenderContext): string {
  const e = escapeMarkup;
  switch (parameter.type) {
    case "file":
      return `<file link="${e(fileLink(context.baseUrl, parameter.value))}" id="${parameter.id ?? ""}">${e(trimmedPath(parameter.value) || "/")}</file>`;
    case "user":
      return `<user display-name="${e(userDisplayName(parameter.value, context))}">${e(parameter.value)}</user>`;
    case "federated-cloud-id": {
      const { user, server } = splitCloudId(parameter.value);
      return `<federated-cloud-id display-name="${e(cloudDisplayName(parameter.value))}" user="${e(user)}" server="${e(server)}">${e(parameter.value)}</federated-cloud-id>`;
    }
    case "parameter":
      return `<parameter>${e(parameter.value)}</parameter>`;
    case "collection":
      return `<collection>${distinct(parameter.value)
        .map((item) => parameterMarkup(item, context))
        .join("")}</collection>`;
  }
}

export function preparedText(segments: readonly Segment[], context: RenderContext): string {
  return segments.map((s) => ("text" in s ? escapeMarkup(s.text) : parameterMarkup(s.parameter, context))).join("");
}

// ---- rich strings (docs/upstream/nextcloud-activity.md §6.1, read by today's clients) ----

export type RichObject = Record<string, string>;
export type RichString = [string, Record<string, RichObject> | []];

function richObject(parameter: ScalarParameter, context: RenderContext): RichObject {
  switch (parameter.type) {
    case "file": {
      const id = parameter.id === undefined ? "" : String(parameter.id);
      const link =
        parameter.id === undefined ? fileLink(context.baseUrl, parameter.value) : `${context.baseUrl}/index.php/f/${id}`;
      return { type: "file", id, name: basename(parameter.value), path: trimmedPath(parameter.value), link };
    }
    case "user":
      return { type: "user", id: parameter.value, name: userDisplayName(parameter.value, context) };
    case "federated-cloud-id": {
      const { user, server } = splitCloudId(parameter.value);
      return { type: "user", id: user, name: parameter.value, server };
    }
    case "parameter":
      return { type: "highlight", id: parameter.value, name: parameter.value };
  }
}

/** The catalogue of the language a text is rendered in (the stored activity stays untranslated). */
function messages(language: string | undefined) {
  return translatorFor(supportedLanguage(language) ?? "en");
}

/**
 * "a", "a and b", "a, b and c" (docs/upstream/nextcloud-activity.md §5.3's connector strings), in
 * the reader's language.
 */
export function joinList(items: readonly string[], language?: string | undefined): string {
  if (items.length <= 1) return items.join("");
  const { t } = messages(language);
  return `${items.slice(0, -1).join(t("activity:list.separator"))}${t("activity:list.lastSeparator")}${items.at(-1)}`;
}

export function richText(segments: readonly Segment[], context: RenderContext): RichString {
  const objects: Record<string, RichObject> = {};
  let template = "";
  for (const segment of segments) {
    if ("text" in segment) {
      template += segment.text;
    } else if (segment.parameter.type === "collection") {
      const items = distinct((segment.parameter as CollectionParameter).value);
      const names = items.map((item, i) => {
        const name = `${segment.name}${i + 1}`;
        objects[name] = richObject(item, context);
        return `{${name}}`;
      });
      template += joinList(names, context.language);
    } else {
      objects[segment.name] = richObject(segment.parameter, context);
      template += `{${segment.name}}`;
    }
  }
  return [template, Object.keys(objects).length === 0 ? [] : objects];
}

// ---- plain text ----

export function parameterPlain(parameter: Parameter, context: RenderContext): string {
  switch (parameter.type) {
    case "file":
      return trimmedPath(parameter.value) || "/";
    case "user":
      return userDisplayName(parameter.value, context);
    case "federated-cloud-id":
    case "parameter":
      return parameter.value;
    case "collection":
      return joinList(
        distinct(parameter.value).map((item) => parameterPlain(item, context)),
        context.language,
      );
  }
}

export function plainText(segments: readonly Segment[], context: RenderContext): string {
  return segments.map((s) => ("text" in s ? s.text : parameterPlain(s.parameter, context))).join("");
}
