import { MIMEType } from "node:util";
import type { FastifyRequest } from "fastify";
import { clientError } from "./errors.js";

/**
 * A `multipart/form-data` body (RFC 7578) read by Node's own FormData parser (undici). A body it
 * cannot parse is the client's mistake: 400, never a 500 with a stack. Before parsing, the parts
 * are counted by their delimiters (RFC 2046 §5.1.1: "--" and the boundary, which no part may
 * contain), and a body with more than `maxParts` is refused with 413 unparsed: the parser's cost
 * grows with the number of parts, and a form of a few fields needs no more.
 */
export async function parseMultipart(request: FastifyRequest, body: Buffer, maxParts: number): Promise<FormData> {
  const contentType = String(request.headers["content-type"]);
  const boundary = boundaryOf(contentType);
  if (boundary === undefined) throw clientError(400, "The multipart body has no boundary.");
  // One delimiter before each part, and the closing one.
  if (occurrences(body, Buffer.from(`--${boundary}`), maxParts + 2) > maxParts + 1) {
    throw clientError(413, `A multipart body may have at most ${maxParts} parts.`);
  }
  try {
    return await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw clientError(400, "The multipart body is malformed.");
  }
}

function boundaryOf(contentType: string): string | undefined {
  try {
    return new MIMEType(contentType).params.get("boundary") || undefined;
  } catch {
    return undefined;
  }
}

/** How often `needle` occurs in `haystack`, counted up to `limit`. */
function occurrences(haystack: Buffer, needle: Buffer, limit: number): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0 && count < limit; at = haystack.indexOf(needle, at + needle.length)) {
    count++;
  }
  return count;
}
