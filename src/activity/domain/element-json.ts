import { BoundedCache } from "./bounded-cache.js";
import { toStreamEntry } from "./element.js";
import type { ActivityGroup } from "./grouping.js";
import type { RenderContext } from "./prepared-text.js";

/** Elements kept as JSON text (≈ 1 KB each): the first pages of some hundred users. */
export const ELEMENT_JSON_CACHE_SIZE = 10_000;

/** The element as the API answers it. */
export function elementJson(group: ActivityGroup, context: RenderContext): string {
  return JSON.stringify(toStreamEntry(group, context).element);
}

interface CachedElement {
  /** UTF-8 already: the answer is assembled from these bytes without encoding the text again. */
  json: Buffer;
  /** Every display name the rendering looked up, as it found it. */
  names: Array<[uid: string, name: string | undefined]>;
}

/**
 * The wire JSON of stream elements, rendered once and reused (issue 17: assembling the element and
 * serialising it were half of a page's CPU). An element is a function of its group's stored rows
 * (which never change once stored: storage/activity-store.ts), the base URL, the language and the
 * display names of the users it names. The key holds the first three; the display names are read
 * for every page anyway, and an entry is used only while each name it was rendered with is still
 * the current one, so a renamed user shows under the new name at once, on every node.
 */
export class ElementJsonCache {
  private readonly entries: BoundedCache<string, CachedElement>;

  constructor(
    /** The rendering cached: a function of the group's rows and the context only. */
    private readonly render: (group: ActivityGroup, context: RenderContext) => string = elementJson,
    capacity = ELEMENT_JSON_CACHE_SIZE,
  ) {
    this.entries = new BoundedCache(capacity);
  }

  /** render(group, context) as UTF-8, from the cache when still valid. */
  json(group: ActivityGroup, context: RenderContext): Buffer {
    let ids = "";
    for (const member of group.members) ids += `${member.activity_id},`;
    const key = `${context.language ?? ""}\n${context.baseUrl}\n${ids}`;
    const hit = this.entries.get(key);
    if (hit?.names.every(([uid, name]) => context.displayName(uid) === name)) return hit.json;
    const names: CachedElement["names"] = [];
    const recording: RenderContext = {
      ...context,
      displayName(uid) {
        const name = context.displayName(uid);
        names.push([uid, name]);
        return name;
      },
    };
    const json = Buffer.from(this.render(group, recording));
    this.entries.set(key, { json, names });
    return json;
  }
}
