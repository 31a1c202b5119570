/**
 * The one rule for "a target that stays on this server" (login `redirect_url`, logout's return
 * target, an activity's `link`). Pure: used by the http layer and the activity domain alike.
 *
 * A browser resolves a `Location` or `href` with the WHATWG URL parser, which removes tabs and
 * newlines, reads `\` as `/`, and resolves dot segments (`/.//x`, `/..//x`, `/%2e//x` → `//x`).
 * A path that *becomes* `//host` after that is a scheme-relative URL to another host: an open
 * redirect (RFC 9700 §4.11). So the check runs on the normalised form, and the normalised form is what the
 * caller sends: what was checked is what the browser gets.
 */

/** Any fixed origin will do: only "did the target leave it" matters. */
const PROBE_BASE = "http://keystream.invalid";

/**
 * `target` as a normalised same-origin path (path, query and fragment, percent-encoded as a browser
 * would), or undefined when it is not a string, not path-absolute (`/…`), or could reach another
 * host once a browser resolves it.
 */
export function sameOriginPath(target: unknown): string | undefined {
  if (typeof target !== "string" || !target.startsWith("/")) return undefined;
  // `\` is `/` to a browser in http(s) URLs; refused anywhere rather than reasoned about.
  if (target.includes("\\")) return undefined;
  let normalised: string;
  try {
    const probe = new URL(target, PROBE_BASE);
    if (probe.origin !== PROBE_BASE) return undefined;
    normalised = probe.pathname + probe.search + probe.hash;
  } catch {
    return undefined;
  }
  // The normalised path must itself be path-absolute and not scheme-relative: `//x` would be host x.
  if (!normalised.startsWith("/") || normalised.startsWith("//")) return undefined;
  return normalised;
}

/**
 * A link a page may put in an `href` for anyone to follow: an absolute http(s) URL (another site,
 * on purpose), or a same-origin path by `sameOriginPath` (returned normalised). Anything else
 * (`javascript:`, `/\evil.com`, `/.//evil.com`) is undefined.
 */
export function safeLink(value: string): string | undefined {
  if (value.startsWith("/")) return sameOriginPath(value);
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return value;
  } catch {}
  return undefined;
}
