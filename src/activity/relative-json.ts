import { randomBytes } from "node:crypto";
import { escapeMarkup } from "./domain/prepared-text.js";

/**
 * Activity JSON as the caches hold it: without the base URL, which comes from the request (its
 * `Host` when overwrite.cli.url is unset) and so is spliced in when answering instead of being
 * cached, once per host. An element names the base URL in two forms: as is inside a JSON string
 * (`icon`, rich objects' `link`), and escaped as markup inside one (the `link` attribute of a
 * `<file>` in `subject_prepared`; docs/spec/activity-api.md). Both escapings work character by
 * character, so the base's escaped form is the same wherever it stands and splicing it in gives the
 * very bytes the rendering with the base would have.
 */
export interface RelativeJson {
  /** UTF-8 JSON text with the base URL left out. */
  readonly bytes: Buffer;
  /**
   * Where the base URL goes, in ascending order: the byte offset × 2, plus 1 where it goes escaped
   * as markup.
   */
  readonly marks: Uint32Array;
}

/**
 * Unguessable, so no text stored in an activity can stand for it: renderings made for a cache use
 * BASE_PLACEHOLDER as their base URL. Its last character is one markup escapes (`'` → `&#039;`)
 * and JSON does not, which tells the two forms apart.
 */
const MARKER = `ks${randomBytes(16).toString("hex")}`;
const MARKER_BYTES = Buffer.from(MARKER);
const RAW_END = Buffer.from("'");
const MARKUP_END = Buffer.from("&#039;");

/** The base URL to render a cached element with (relativeJson takes it out again). */
export const BASE_PLACEHOLDER = `${MARKER}'`;

const NO_MARKS = new Uint32Array(0);

/** `json`, rendered with BASE_PLACEHOLDER as its base URL, without it. */
export function relativeJson(json: string): RelativeJson {
  const full = Buffer.from(json);
  let at = full.indexOf(MARKER_BYTES);
  if (at < 0) return { bytes: full, marks: NO_MARKS };
  const found: Array<{ at: number; end: number; markup: boolean }> = [];
  let removed = 0;
  while (at >= 0) {
    const after = at + MARKER_BYTES.length;
    const markup = startsWith(full, after, MARKUP_END);
    if (markup || startsWith(full, after, RAW_END)) {
      const end = after + (markup ? MARKUP_END : RAW_END).length;
      found.push({ at, end, markup });
      removed += end - at;
      at = full.indexOf(MARKER_BYTES, end);
    } else {
      at = full.indexOf(MARKER_BYTES, after);
    }
  }
  const bytes = Buffer.allocUnsafe(full.length - removed);
  const marks = new Uint32Array(found.length);
  let from = 0;
  let written = 0;
  found.forEach((place, i) => {
    written += full.copy(bytes, written, from, place.at);
    marks[i] = written * 2 + (place.markup ? 1 : 0);
    from = place.end;
  });
  full.copy(bytes, written, from);
  return { bytes, marks };
}

function startsWith(buffer: Buffer, at: number, prefix: Buffer): boolean {
  return buffer.length - at >= prefix.length && buffer.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0;
}

/** A base URL as it is spliced in: inside a JSON string, and escaped as markup inside one. */
export interface BaseForms {
  raw: Buffer;
  markup: Buffer;
}

let lastForms: { base: string; forms: BaseForms } | undefined;

/** The forms of `base` (the last base's kept: a process answers for one host nearly always). */
export function baseForms(base: string): BaseForms {
  if (lastForms?.base === base) return lastForms.forms;
  const inString = (text: string) => Buffer.from(JSON.stringify(text).slice(1, -1));
  const forms = { raw: inString(base), markup: inString(escapeMarkup(base)) };
  lastForms = { base, forms };
  return forms;
}

/** `relative` with the base URL spliced in: the bytes a rendering with that base URL has. */
export function withBase(relative: RelativeJson, base: BaseForms): Buffer {
  const { bytes, marks } = relative;
  if (marks.length === 0) return bytes;
  let length = bytes.length;
  for (const mark of marks) length += (mark & 1 ? base.markup : base.raw).length;
  const out = Buffer.allocUnsafe(length);
  let from = 0;
  let written = 0;
  for (const mark of marks) {
    const at = mark >>> 1;
    written += bytes.copy(out, written, from, at);
    written += (mark & 1 ? base.markup : base.raw).copy(out, written);
    from = at;
  }
  bytes.copy(out, written, from);
  return out;
}

/** Relative JSON assembled from parts (a page's answer from its elements). */
export class RelativeJsonBuilder {
  private readonly parts: Buffer[] = [];
  private readonly marks: number[] = [];
  private length = 0;

  push(bytes: Buffer): void {
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  /** `relative`'s first `end` bytes (all by default; no base URL may go at or past `end`). */
  pushRelative(relative: RelativeJson, end = relative.bytes.length): void {
    for (const mark of relative.marks) this.marks.push(mark + this.length * 2);
    this.push(end === relative.bytes.length ? relative.bytes : relative.bytes.subarray(0, end));
  }

  build(): RelativeJson {
    return { bytes: Buffer.concat(this.parts, this.length), marks: Uint32Array.from(this.marks) };
  }
}
