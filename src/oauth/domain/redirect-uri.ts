/**
 * Redirect URIs: the one matching function used by the authorization AND the token endpoint, the
 * registration validity check, and how a redirect target is built.
 */

/** research A.3 rule 1: a registered URI starting with exactly this allows any port on host `localhost`. */
export const LOCALHOST_ANY_PORT = "http://localhost:*";

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/** research A.3 rule 1: the wildcard port removed, and whether it was there. */
function withoutAnyPort(registered: string): { uri: string; anyPort: boolean } {
  return registered.startsWith(LOCALHOST_ANY_PORT)
    ? { uri: `http://localhost${registered.slice(LOCALHOST_ANY_PORT.length)}`, anyPort: true }
    : { uri: registered, anyPort: false };
}

/**
 * research A.3 rule 4 (`allow-sub-domains`): compared label by label from the right, every label of
 * the registered host must equal the actual host's label, so the host itself and any deeper
 * subdomain match, and `trustedclient.community` does not match `trustedclient.com`.
 */
export function hostMatches(registeredHost: string, actualHost: string, allowSubdomains: boolean): boolean {
  if (!allowSubdomains) return registeredHost === actualHost;
  const registered = registeredHost.split(".").reverse();
  const actual = actualHost.split(".").reverse();
  if (actual.length < registered.length) return false;
  return registered.every((label, i) => label === actual[i]);
}

/**
 * Does a redirect URI sent in a request match the client's registered one? (spec: Client,
 * redirect-url; research A.3). WHATWG URL comparison of protocol, host, port, path and query;
 * fragment and user info are ignored; `http://localhost:*` accepts any port on `localhost`.
 */
export function redirectUriMatches(registered: string, given: string, allowSubdomains: boolean): boolean {
  const { uri, anyPort } = withoutAnyPort(registered);
  const expected = parse(uri);
  const actual = parse(given);
  if (!expected || !actual) return false;
  return (
    expected.protocol === actual.protocol &&
    hostMatches(expected.hostname, actual.hostname, allowSubdomains) &&
    (anyPort || expected.port === actual.port) &&
    expected.pathname === actual.pathname &&
    expected.search === actual.search
  );
}

/**
 * research A.3: callers URL-decode a supplied redirect URI once more (PHP `urldecode`: `+` is a
 * space, `%xx` a byte, malformed escapes stay as they are), on top of the query-string decoding.
 */
export function decodeSuppliedRedirectUri(value: string): string {
  const spaced = value.replace(/\+/g, " ");
  return spaced.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = Buffer.from(run.replace(/%/g, ""), "hex");
    return bytes.toString("utf8");
  });
}

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const SCHEMES_WITHOUT_HOST = new Set(["mailto:", "news:", "file:"]);

/**
 * Registration validity (research A.3, ownCloud `isValidUrl`): after removing the localhost any-port
 * wildcard, an absolute URL of URL-safe ASCII; http(s) need a valid host name, other schemes a host
 * (except mailto, news, file); the port must be numeric.
 */
export function isValidRedirectUri(registered: string): boolean {
  const { uri } = withoutAnyPort(registered);
  if (uri === "" || /[^\x21-\x7e]|[<>"{}|\\^`]/.test(uri)) return false;
  const url = parse(uri);
  if (!url) return false;
  if (url.protocol === "http:" || url.protocol === "https:") {
    // WHATWG forgives `https:///path` (reading `path` as the host); a registration must spell the host out.
    if (!/^https?:\/\/[^/?#]/i.test(uri)) return false;
    const host = url.hostname;
    if (host === "") return false;
    if (host.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return true;
    return host
      .replace(/\.$/, "")
      .split(".")
      .every((label) => HOST_LABEL.test(label));
  }
  return url.host !== "" || SCHEMES_WITHOUT_HOST.has(url.protocol);
}

/** The host name of a registered redirect URI (wildcard port removed), for the localhost trust rule. */
export function redirectHostname(registered: string): string | undefined {
  return parse(withoutAnyPort(registered).uri)?.hostname;
}

/**
 * The redirect target: the (validated) supplied URI without its fragment, plus the parameters in
 * the query (`?`, or `&` when it already has a query) or, for the implicit flow, in the fragment.
 * ownCloud always appended `?`, which breaks a registered URI that has a query; its output is
 * otherwise identical (`https://owncloud.org?error=unsupported_response_type`).
 */
export function redirectTarget(
  redirectUri: string,
  parameters: Record<string, string | undefined>,
  placement: "query" | "fragment" = "query",
): string {
  const base = redirectUri.split("#", 1)[0] ?? "";
  const pairs = Object.entries(parameters)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join("&");
  if (placement === "fragment") return `${base}#${pairs}`;
  return `${base}${base.includes("?") ? "&" : "?"}${pairs}`;
}
