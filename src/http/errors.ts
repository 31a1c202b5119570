import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";

/**
 * The last line of error handling: anything a route did not turn into a response itself.
 * Client mistakes Fastify detects (bad JSON, oversized body, wrong content type) keep their 4xx
 * status with a plain message; everything else is logged and answered as a fixed 500 that
 * reveals nothing of the internals.
 */
export function handleUncaughtError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply.status(status).send({ error: "invalid_request", error_description: error.message });
  }
  request.log.error({ err: error }, "unhandled error");
  return reply.status(500).send({ error: "server_error", error_description: "Internal server error." });
}
