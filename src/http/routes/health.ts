import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";
import { readinessChecker } from "../readiness.js";

export const HEALTH_LIVE_PATH = "/health/live";
export const HEALTH_READY_PATH = "/health/ready";

/** True for the health probes' paths, which maintenance mode and throttling leave alone. */
export function isHealthPath(url: string): boolean {
  return url.startsWith("/health/");
}

/**
 * `/health/live` and `/health/ready` (the names Keycloak and Hydra use), on the main
 * listener and on the metrics listener. No authentication, no throttling, never cached, and their
 * access-log lines below info (`logLevel: "warn"`): a probe every few seconds would drown the log.
 * Live answers 200 whenever the event loop runs; ready answers 503 with the failing checks listed
 * (http/readiness.ts). Each check's `reason` only on the metrics listener (`withReasons`):
 * a config.json parse error quotes the file's text, which is nobody's business on the public port.
 */
export async function healthRoutes(app: FastifyInstance, options: { services: Services; withReasons?: boolean }): Promise<void> {
  const { storage, settings } = options.services;
  const ready = readinessChecker(storage, settings);
  app.get(HEALTH_LIVE_PATH, { logLevel: "warn" }, async (_request, reply) =>
    reply.header("cache-control", "no-store").send({ status: "UP" }),
  );
  app.get(HEALTH_READY_PATH, { logLevel: "warn" }, async (_request, reply) => {
    const readiness = await ready();
    const body = options.withReasons
      ? readiness
      : { status: readiness.status, checks: readiness.checks.map(({ name, status }) => ({ name, status })) };
    return reply
      .status(readiness.status === "UP" ? 200 : 503)
      .header("cache-control", "no-store")
      .send(body);
  });
}
