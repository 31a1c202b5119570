import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { REQUEST_ID_HEADER } from "../observability/logging.js";
import { isDatabaseUnavailable } from "../storage/driver/availability.js";
import { requestTranslator } from "./i18n.js";
import { messagePage, sendPage } from "./pages/layout.js";
import { sendUnavailable } from "./unavailable.js";

/**
 * An error answered with `status` (4xx) and `message` for the client, as Fastify's own client
 * errors are (see handleUncaughtError): for a body a parser refuses.
 */
export function clientError(status: 400 | 413, message: string): Error & { statusCode: number } {
  return Object.assign(new Error(message), { statusCode: status });
}

/**
 * The last line of error handling: anything a route did not turn into a response itself.
 * - The database unavailable (down, hung, full: storage/driver/availability.ts decides, from errors a
 *   database call raised only): 503 with Retry-After, reported to the storage's availability
 *   monitor, which logs the outage once.
 * - The request stream failed (the client reset or closed the connection mid-body, or the request
 *   timeout cut it: Node then has answered 408 itself): the client's doing, never an outage. Logged
 *   at info; the 400 reaches nobody when the socket is gone.
 * - Client mistakes Fastify detects (bad JSON, oversized body, wrong content type) keep their 4xx
 *   status with Fastify's plain message.
 * - Everything else is logged and answered as a fixed 500 that reveals nothing of the internals:
 *   never the error's message or code (a Node error such as ERR_INVALID_CHAR names a header); a
 *   browser gets a page showing the request id, the reference to the logged error.
 */
export function handleUncaughtError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // Headers the route had set may be what failed (an invalid character in Location throws while
  // the head is written), and none of them belong on an error answer.
  for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name);
  reply.header(REQUEST_ID_HEADER, request.id);
  if (isDatabaseUnavailable(error)) {
    request.server.services.storage.availability.failed(error);
    return sendUnavailable(request, reply);
  }
  if (requestStreamFailed(request)) {
    request.log.info({ event: "request_aborted", code: error.code }, "the request ended before its body was read");
    return reply.status(400).send({ error: "invalid_request", error_description: "The request body was not received in full." });
  }
  // Fastify's own 4xx errors (bad JSON, oversized body, wrong content type) carry a status and a
  // message written for the client.
  const status = error.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return reply.status(status).send({ error: "invalid_request", error_description: error.message });
  }
  request.log.error({ err: error }, "unhandled error");
  if ((request.headers.accept ?? "").includes("text/html")) {
    const translator = requestTranslator(request);
    const { t } = translator;
    const page = messagePage(
      translator,
      t("pages:message.internalError"),
      t("pages:message.internalErrorText"),
      undefined,
      request.id,
    );
    return sendPage(reply, page, 500);
  }
  return reply.status(500).send({ error: "server_error", error_description: "Internal server error." });
}

/** The client's side of the connection failed or was cut before the request body was read in full. */
function requestStreamFailed(request: FastifyRequest): boolean {
  const raw = request.raw;
  return !raw.complete && (raw.readableAborted || raw.destroyed || raw.socket?.destroyed === true);
}
