import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The OCS envelope ownCloud/Nextcloud clients expect. v1 reports success as statuscode 100 with
 * HTTP 200; v2 uses the HTTP status as statuscode (docs/upstream/nextcloud-activity.md §1.4,
 * docs/upstream/desktop-clients.md, ownCloud client §8).
 */
export type OcsVersion = 1 | 2;

export function ocsVersionOf(url: string): OcsVersion {
  return url.startsWith("/ocs/v1.php/") ? 1 : 2;
}

export function sendOcs(
  request: FastifyRequest,
  reply: FastifyReply,
  version: OcsVersion,
  data: unknown,
  status = 200,
  message = "OK",
): FastifyReply {
  const ok = status >= 200 && status < 300;
  const meta = {
    status: ok ? "ok" : "failure",
    statuscode: version === 1 ? (ok ? 100 : status) : status,
    message,
  };
  const httpStatus = version === 1 && status !== 401 ? 200 : status;
  const format = (request.query as Record<string, unknown>)?.format;
  const accept = request.headers.accept ?? "";
  const wantsJson = format === "json" || (format !== "xml" && accept.includes("application/json"));
  if (!wantsJson) {
    return reply
      .status(httpStatus)
      .header("content-type", "application/xml; charset=utf-8")
      .send(`<?xml version="1.0"?>\n<ocs>${toXml({ meta, data })}</ocs>\n`);
  }
  return reply.status(httpStatus).send({ ocs: { meta, data } });
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** OCS XML: objects become elements named by key, list items become `<element>`. */
export function toXml(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map((item) => `<element>${toXml(item)}</element>`).join("");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => {
        const tag = /^[A-Za-z_][\w.-]*$/.test(key) ? key : "element";
        return `<${tag}>${toXml(inner)}</${tag}>`;
      })
      .join("");
  }
  if (typeof value === "boolean") return value ? "1" : "";
  return escapeXml(String(value));
}
