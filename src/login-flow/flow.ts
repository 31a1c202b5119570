/**
 * Nextcloud's Login Flow v2 (nextcloud/server `core/Controller/ClientFlowLoginV2Controller.php`,
 * `core/Service/LoginFlowV2Service.php`): the rules of a flow, with no HTTP and no database. A
 * client starts a flow and gets a poll token and a login URL; the user opens the URL, logs in and
 * grants (or cancels); the client's next poll receives the server, the login name and a new app
 * password, exactly once.
 */

/** A flow lives 20 minutes from its creation, as in Nextcloud's LoginFlowV2Service. */
export const LOGIN_FLOW_LIFETIME_SECONDS = 20 * 60;

/**
 * Both tokens: 128 characters of [A-Za-z0-9], Nextcloud's length (about 762 bits): unguessable, so
 * the poll throttle is a brake on floods, not what keeps a flow secret.
 */
export const LOGIN_FLOW_TOKEN_LENGTH = 128;

/** The app password's name when the client sent no User-Agent. */
export const UNNAMED_CLIENT = "Unknown client";

/**
 * The longest application name kept, in characters (Unicode code points): room for the desktop
 * client's `<hostname> (Desktop Client - Linux)`, not for a paragraph of someone else's words on
 * Keystream's pages.
 */
export const MAX_CLIENT_NAME_LENGTH = 64;

/** The longest starting address kept (an IPv6 address with a zone id fits). */
const MAX_CLIENT_ADDRESS_LENGTH = 64;

const GRAPHEMES = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * The application's name, shown on the login and grant pages and given to the app password: the
 * User-Agent of the request that started the flow (Nextcloud's ClientFlowLoginV2Controller does
 * the same; the desktop client sends `<hostname> (Desktop Client - Linux)`). It is the starter's
 * own claim, free text, so the pages present it as the application's description of itself.
 * Control characters are dropped, and a longer text is cut to MAX_CLIENT_NAME_LENGTH characters
 * with "…", between two user-perceived characters (Unicode grapheme clusters, UAX #29), so a cut
 * never splits an accented letter, an emoji or a surrogate pair.
 */
export function clientNameOf(userAgent: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  const cleaned = (userAgent ?? "").replace(/[\u0000-\u001f\u007f]/g, " ").trim();
  return cleaned === "" ? UNNAMED_CLIENT : truncated(cleaned, MAX_CLIENT_NAME_LENGTH);
}

/** `text` when it has at most `max` code points, else its longest run of whole graphemes that fits with "…". */
function truncated(text: string, max: number): string {
  if ([...text].length <= max) return text;
  let kept = "";
  let length = 0;
  for (const { segment } of GRAPHEMES.segment(text)) {
    const size = [...segment].length;
    if (length + size > max - 1) break;
    kept += segment;
    length += size;
  }
  return `${kept.trimEnd()}…`;
}

/** The address a flow was started from, as the request reports it (cut to the column's width). */
export function clientAddressOf(ip: string): string {
  return ip.slice(0, MAX_CLIENT_ADDRESS_LENGTH);
}

/** The oldest `created_at` still live at `now`. */
export function liveSince(now: number): number {
  return now - LOGIN_FLOW_LIFETIME_SECONDS;
}

/** A new flow as the client gets it (the tokens in clear, once). */
export interface StartedFlow {
  pollToken: string;
  loginToken: string;
}

/**
 * A poll's outcome. `granted`: the credentials, delivered this once. `waiting`: the flow exists
 * (pending, or already expired or cancelled and not yet purged): a legitimate client's poll,
 * answered 404 without counting against its address. `unknown`: no such flow: what guessing
 * produces, counted by the poll throttle (docs/decisions.md).
 */
export type PollOutcome = { kind: "granted"; loginName: string; appPassword: string } | { kind: "waiting" } | { kind: "unknown" };
