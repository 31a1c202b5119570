import { isIPv4, isIPv6 } from "node:net";

/** The length of the IPv6 prefix one client is taken to hold: one subnet (RFC 4291 §2.5.4, RFC 6177 §2). */
const IPV6_CLIENT_PREFIX_GROUPS = 4;

/**
 * The address a per-address throttle bucket counts a client under.
 * - IPv4: the address itself.
 * - IPv6: its /64, written `2001:db8:1:2::/64`. A single subscriber line or host is given at least
 *   a /64 (RFC 6177 §2) and picks addresses in it at will (RFC 8981 temporary addresses), so one
 *   client owns 2^64 addresses: counted per address, it would start fresh with every attempt.
 *   Nextcloud's throttler groups IPv6 by subnet as well (nextcloud/server
 *   `lib/private/Security/Normalizer/IpAddress.php`, /56 by default there; docs/decisions.md says
 *   why /64 here).
 * - An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, RFC 4291 §2.5.5.2: what a dual-stack socket
 *   reports for an IPv4 client) is that IPv4 address, so one client has one bucket whichever
 *   socket it came through.
 * Any spelling of one address gives one key: a zone id (`fe80::1%eth0`) is dropped, `::`
 * compression, leading zeros, letter case and an embedded dotted quad are normalised by the WHATWG
 * URL parser's IPv6 parser. Anything that is not an IP address (a trusted proxy may forward any
 * text) is returned as it is.
 */
export function throttleAddressOf(ip: string): string {
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    return [groups[6] as number, groups[7] as number].flatMap((group) => [group >> 8, group & 0xff]).join(".");
  }
  const prefix = groups.slice(0, IPV6_CLIENT_PREFIX_GROUPS).map((group) => group.toString(16));
  return `${canonicalIpv6(`${prefix.join(":")}::`)}/${IPV6_CLIENT_PREFIX_GROUPS * 16}`;
}

/** RFC 5952 text of an IPv6 address (lowercase, shortest `::`), as the URL parser serialises a host. */
function canonicalIpv6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/** The eight 16-bit groups of an IPv6 address that `isIPv6` accepted (a zone id, if any, is dropped). */
function ipv6Groups(address: string): number[] {
  const canonical = canonicalIpv6(address.split("%")[0] as string);
  const [head = "", tail] = canonical.split("::");
  const split = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  if (tail === undefined) return split(head);
  const [first, last] = [split(head), split(tail)];
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}
