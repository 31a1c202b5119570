/**
 * What is wrong with a `backchannel_logout_uri` (OpenID Connect Back-Channel Logout 1.0 §2.2): it
 * must be an absolute URL, may have a query (mod_auth_openidc's is its redirect URI with
 * `?logout=backchannel`), must not have a fragment or user name. Logout tokens name the user and
 * their session, so they travel over https; plain http only to a loopback host (RFC 8252 §8.3: the
 * request never leaves the machine), where a relying party beside Keystream listens.
 */
export type BackchannelLogoutUriProblem = "invalid" | "not-https";

const LOOPBACK_HOSTS = new Set(["localhost", "[::1]"]);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

export function backchannelLogoutUriProblem(uri: string): BackchannelLogoutUriProblem | undefined {
  if (uri.includes("#") || /\s/.test(uri) || !URL.canParse(uri)) return "invalid";
  const url = new URL(uri);
  if (url.protocol !== "https:" && url.protocol !== "http:") return "invalid";
  if (!/^https?:\/\/[^/?#@]+([/?]|$)/i.test(uri) || url.hostname === "") return "invalid";
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) return "not-https";
  return undefined;
}
