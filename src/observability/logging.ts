import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import net from "node:net";
import type { LoggerOptions } from "pino";

/**
 * The server's log format: one JSON object per line, `time` as ISO 8601 (UTC)
 * and `level` as its name ("info", "warn"), as Keycloak, Authelia and Hydra write theirs. Every
 * line of the server's stdout goes through a logger built with these options.
 */
export function logOptions(level: string): LoggerOptions {
  return {
    level,
    timestamp: isoTimeOncePerMillisecond(),
    formatters: { level: (label) => ({ level: label }) },
  };
}

/**
 * pino.stdTimeFunctions.isoTime's output, formatted once per millisecond: Date#toISOString cost
 * ≈ 2 µs a line, 2 % of a userinfo request, and under load many lines share a millisecond.
 */
function isoTimeOncePerMillisecond(): () => string {
  let formattedAt = -1;
  let formatted = "";
  return () => {
    const now = Date.now();
    if (now !== formattedAt) {
      formattedAt = now;
      formatted = `,"time":"${new Date(now).toISOString()}"`;
    }
    return formatted;
  };
}

/** The response header carrying the request id (the de-facto name nginx, Heroku and Envoy use). */
export const REQUEST_ID_HEADER = "x-request-id";

/** An id accepted from a trusted proxy: bounded length and a charset that is safe in logs and HTML. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** proxy-addr's names for address ranges (what Fastify's trustProxy also accepts). */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/** A BlockList (Node's address matcher) of the trusted proxies: addresses, CIDRs or range names. */
function proxyMatcher(trustedProxies: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of trustedProxies.flatMap((item) => NAMED_RANGES[item] ?? [item])) {
    const [address = "", prefix] = entry.split("/");
    const family = net.isIPv6(address) ? "ipv6" : "ipv4";
    if (!net.isIP(address)) continue;
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** The peer address in the form BlockList checks (an IPv4 client on a dual-stack socket is ::ffff:a.b.c.d). */
function peerOf(request: IncomingMessage): { address: string; family: "ipv4" | "ipv6" } | undefined {
  const raw = request.socket?.remoteAddress;
  if (!raw) return undefined;
  const address = raw.startsWith("::ffff:") && net.isIPv4(raw.slice(7)) ? raw.slice(7) : raw;
  return { address, family: net.isIPv6(address) ? "ipv6" : "ipv4" };
}

/**
 * Fastify's `genReqId`: a random id per request (a UUID), in every log line of the request
 * (`reqId`) and returned as X-Request-Id, so a user's report can be matched to the log. An incoming
 * X-Request-Id is kept only when the connection comes from a trusted proxy (which then correlates
 * its own log with ours) and the id is short and plain; from anyone else it is ignored, so a client
 * cannot forge or inject log content.
 */
export function requestIdGenerator(trustedProxies: readonly string[]): (request: IncomingMessage) => string {
  const trusted = trustedProxies.length > 0 ? proxyMatcher(trustedProxies) : undefined;
  return (request) => {
    if (trusted) {
      const incoming = request.headers[REQUEST_ID_HEADER];
      if (typeof incoming === "string" && ACCEPTED_REQUEST_ID.test(incoming)) {
        const peer = peerOf(request);
        if (peer && trusted.check(peer.address, peer.family)) return incoming;
      }
    }
    return randomUUID();
  };
}
