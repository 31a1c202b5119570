import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import type { MetricsListener } from "../config/environment.js";
import type { Services } from "../services.js";
import { healthRoutes } from "./routes/health.js";

export const METRICS_PATH = "/metrics";

/**
 * The metrics listener: `GET /metrics` (Prometheus text format) and the health probes
 * on a port of their own, as Keycloak (management port 9000) and Authelia (9959) do. The metrics
 * are never on the public listener: what protects them is where this one listens (loopback by
 * default; a private interface the scraper reaches otherwise), not a password. Its own requests
 * are not logged nor counted.
 */
export async function buildMetricsApp(services: Services): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: services.log as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.get(METRICS_PATH, async (_request, reply) => {
    const text = await services.metrics.exposition();
    return reply.header("content-type", services.metrics.contentType).header("cache-control", "no-store").send(text);
  });
  await app.register(healthRoutes, { services, withReasons: true });
  return app;
}

/** Builds the metrics app and listens; returns its URL and the app (closed with the server). */
export async function listenMetrics(
  services: Services,
  listener: MetricsListener,
): Promise<{ url: string; app: FastifyInstance }> {
  const app = await buildMetricsApp(services);
  await app.listen({ host: listener.host, port: listener.port });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : listener.port;
  const host = listener.host.includes(":") ? `[${listener.host}]` : listener.host;
  return { url: `http://${host}:${port}`, app };
}
