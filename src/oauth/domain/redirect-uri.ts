/**
 * Redirect URIs: the one matching function used by the authorization AND the token endpoint, the
 * registration validity check, and how a redirect target is built.
 */

/**
 * The any-port wildcard: ownCloud's `http://localhost:*` (docs/upstream/owncloud-oauth2.md A.3 rule
 * 1: a registered URI starting with exactly this allows any port on host `localhost`), and the same on the loopback
 * addresses `127.0.0.1` and `[::1]`, which RFC 8252 §7.3 requires for native apps ("MUST allow any
 * port to be specified at the time of the request for loopback IP redirect URIs"). A client that
 * registers itself with a loopback redirect URI is stored with it (src/oauth/registration.ts).
 */
const ANY_PORT = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\]):\*/;

/** The loopback hosts of RFC 8252 §7.3 (and `localhost`, §8.3), as the WHATWG parser spells them. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/** docs/upstream/owncloud-oauth2.md A.3 rule 1 (and ANY_PORT): the wildcard port removed, and whether it was there. */
function withoutAnyPort(registered: string): { uri: string; anyPort: boolean } {
  const wildcard = ANY_PORT.exec(registered);
  return wildcard
    ? { uri: `http://${wildcard[1]}${registered.slice(wildcard[0].length)}`, anyPort: true }
    : { uri: registered, anyPort: false };
}

/**
 * A loopback redirect URI of RFC 8252 §7.3 with its port replaced by the any-port wildcard
 * (`http://127.0.0.1:51004` becomes `http://127.0.0.1:*` followed by the path and query); undefined
 * for any other URI, or one that cannot be registered (redirectUriProblem).
 */
export function loopbackAnyPort(uri: string): string | undefined {
  if (redirectUriProblem(uri) !== undefined) return undefined;
  const url = parse(uri);
  if (url?.protocol !== "http:" || !LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return `http://${url.hostname}:*${url.pathname}${url.search}`;
}

/**
 * docs/upstream/owncloud-oauth2.md A.3 rule 4 (`allow-sub-domains`): compared label by label from the
 * right, every label of the registered host must equal the actual host's label, so the host itself and
 * any deeper subdomain match, and `trustedclient.community` does not match `trustedclient.com`.
 */
export function hostMatches(registeredHost: string, actualHost: string, allowSubdomains: boolean): boolean {
  if (!allowSubdomains) return registeredHost === actualHost;
  const registered = registeredHost.split(".").reverse();
  const actual = actualHost.split(".").reverse();
  if (actual.length < registered.length) return false;
  return registered.every((label, i) => label === actual[i]);
}

/**
 * Only printable ASCII (U+0021–U+007E) can go into a `Location` header as it is and still be the
 * URI that was compared. The WHATWG parser forgives more: it strips TAB/CR/LF and maps a host
 * through IDNA (U+3002 "。" becomes "."), so `https://client.example/c%0D%0Ab` or
 * `https://evil。client.example/cb` would compare equal to a registration while the raw value
 * cannot be sent (Node throws on CR/LF and non-Latin-1) or means something else to a browser.
 * Registrations and supplied URIs are held to it alike.
 */
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

/**
 * Does a redirect URI sent in a request match the client's registered one? (docs/spec/oauth2-service.md, Client, redirect-url;
 * owncloud/oauth2 lib/Utilities.php, docs/upstream/owncloud-oauth2.md A.3). A URI with a control,
 * whitespace or non-ASCII character matches nothing (see PRINTABLE_ASCII), so the request is unproven:
 * the error page, never a redirect. Otherwise WHATWG URL comparison of protocol, host, port, path and
 * query; fragment and user info are ignored; `http://localhost:*` accepts any port on `localhost`,
 * and `http://127.0.0.1:*` and `http://[::1]:*` any port on those loopback addresses (RFC 8252 §7.3).
 */
export function redirectUriMatches(registered: string, given: string, allowSubdomains: boolean): boolean {
  if (!PRINTABLE_ASCII.test(given)) return false;
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
 * docs/upstream/owncloud-oauth2.md A.3: callers URL-decode a supplied redirect URI once more (PHP
 * `urldecode`: `+` is a space, `%xx` a byte, malformed escapes stay as they are), on top of the
 * query-string decoding.
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

/** Why a registration is refused: not a URL ownCloud accepts, or a form RFC 6749 §3.1.2 / RFC 3986 rule out. */
export type RedirectUriProblem = "invalid" | "fragment" | "userinfo";

/**
 * Registration validity, the one check behind `occ oauth2:add-client`/`modify-client` and the admin
 * page. ownCloud's `isValidUrl` (owncloud/oauth2 lib/Utilities.php, docs/upstream/owncloud-oauth2.md
 * A.3): after removing the localhost any-port wildcard, an
 * absolute URL of URL-safe ASCII; http(s) need a valid host name, other schemes a host (except
 * mailto, news, file); the port must be numeric. Stricter than ownCloud:
 * - no fragment, not even an empty `#`: RFC 6749 §3.1.2 "MUST NOT include a fragment component";
 * - no user information (`https://u:p@host/cb`, also an empty `https://@host`): RFC 3986 §3.2.1
 *   deprecates it, and since matching ignores it (A.3 rule 8), it would only put a password in
 *   the registration or a misleading host in front of the real one.
 */
export function redirectUriProblem(registered: string): RedirectUriProblem | undefined {
  const { uri } = withoutAnyPort(registered);
  if (uri === "" || !PRINTABLE_ASCII.test(uri) || /[<>"{}|\\^`]/.test(uri)) return "invalid";
  const url = parse(uri);
  if (!url) return "invalid";
  if (uri.includes("#")) return "fragment";
  if (url.username !== "" || url.password !== "" || /^[a-z][a-z0-9+.-]*:\/\/[^/?]*@/i.test(uri)) return "userinfo";
  if (url.protocol === "http:" || url.protocol === "https:") {
    // WHATWG forgives `https:///path` (reading `path` as the host); a registration must spell the host out.
    if (!/^https?:\/\/[^/?#]/i.test(uri)) return "invalid";
    const host = url.hostname;
    if (host === "") return "invalid";
    if (host.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return undefined;
    const labels = host.replace(/\.$/, "").split(".");
    return labels.every((label) => HOST_LABEL.test(label)) ? undefined : "invalid";
  }
  return url.host !== "" || SCHEMES_WITHOUT_HOST.has(url.protocol) ? undefined : "invalid";
}

export function isValidRedirectUri(registered: string): boolean {
  return redirectUriProblem(registered) === undefined;
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
