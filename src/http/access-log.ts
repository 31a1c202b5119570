import { type FastifyReply, type FastifyRequest, LogController } from "fastify";

/**
 * One access-log line per request, written when the answer is sent (method, URL, address, status,
 * time), instead of Fastify's two ("incoming request" and "request completed"): logging was about a
 * tenth of a token request's CPU (issue 6, docs/performance.md). Fastify's other log lines (errors,
 * route not found) stay as they are.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}
