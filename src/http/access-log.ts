import { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import type { EventLog } from "../oauth/token-request.js";
import { redactUrl } from "./log-redaction.js";

/** An event that goes out in its request's access-log line. */
interface AttachedEvent {
  fields: object;
  message: string;
}

const attachedEvents = new WeakMap<FastifyRequest, AttachedEvent>();

/**
 * One access-log line per request, written when the answer is sent (method, URL, address, status,
 * time), instead of Fastify's two ("incoming request" and "request completed"): those two cost about
 * a tenth of a token request's CPU (docs/performance.md). A request's info-level domain
 * event (eventLogOf) is written in the same line, its message in place of "request completed".
 * Fastify's other log lines (errors, route not found) stay as they are, but for the URL they name:
 * redacted (log-redaction.ts), by the `req` serializer of the app's logger (`requestLogValue`) and,
 * for "route not found", here. `onCompleted` is told of every answered request (the metrics count
 * it here, without a hook of their own). A route may lower its own lines below info with Fastify's
 * `logLevel` route option (health probes).
 */
export class AccessLog extends LogController {
  constructor(private readonly onCompleted?: (request: FastifyRequest, reply: FastifyReply) => void) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    this.onCompleted?.(request, reply);
    const event = attachedEvents.get(request);
    const line = { req: request, res: reply, responseTime: reply.elapsedTime, ...event?.fields };
    if (error) reply.log.error({ ...line, err: error }, event ? `request errored: ${event.message}` : "request errored");
    else reply.log.info(line, event?.message ?? "request completed");
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.info(`Route ${request.raw.method}:${redactUrl(request.raw.url ?? "")} not found`);
  }
}

/**
 * The event log for a domain call made on behalf of `request`: an info event (a code redeemed, a
 * token refreshed) rides on the request's access-log line, one line per exchange instead of two;
 * a warning (a replayed code, a reused refresh token) is written at once, on a line of its own.
 */
export function eventLogOf(request: FastifyRequest): EventLog {
  return {
    info(fields, message) {
      const earlier = attachedEvents.get(request);
      // A second event in one request never replaces the first: the first gets its own line.
      if (earlier) request.log.info(earlier.fields, earlier.message);
      attachedEvents.set(request, { fields, message });
    },
    warn(fields, message) {
      request.log.warn(fields, message);
    },
  };
}
