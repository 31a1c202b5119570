import pino from "pino";
import { buildApp } from "./app.js";
import type { Environment } from "./config/environment.js";
import { createServices } from "./services.js";
import { openStorage } from "./storage/connect.js";
import { migrateToLatest } from "./storage/migrate.js";

/**
 * Opens storage, migrates, builds the app and listens. Returns a `stop` that finishes in-flight
 * requests (Fastify's close waits for them), stops background jobs and closes the database.
 */
export async function startServer(environment: Environment): Promise<{ url: string; stop: () => Promise<void> }> {
  // Written asynchronously: under load the lines queued during one write go out in the next, instead
  // of one write system call per line (the access log's write was 7 % of a userinfo request's CPU,
  // issue 6). Lines still leave at once when the server is quiet, and pino flushes on exit.
  const log = pino({ level: environment.logLevel }, pino.destination({ dest: 1, sync: false }));
  const storage = openStorage({
    databaseUrl: environment.databaseUrl,
    dataDir: environment.dataDir,
    backgroundCheckpoints: { onError: (message) => log.error({ event: "sqlite_checkpoint_failed" }, message) },
  });
  const migrations = await migrateToLatest(storage);
  if (migrations.applied.length > 0) log.info({ applied: migrations.applied }, "database migrated");
  const services = createServices({ storage, dataDir: environment.dataDir, log });
  const app = await buildApp({ services, trustedProxies: environment.trustedProxies });
  await app.listen({ host: environment.host, port: environment.port });
  services.jobs.start();
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : environment.port;
  const host = environment.host.includes(":") ? `[${environment.host}]` : environment.host;
  const url = `http://${host}:${port}`;
  log.info({ url, database: storage.describe, dataDir: environment.dataDir }, "Keystream listening");
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await app.close();
      await services.jobs.stop();
      await storage.close();
      log.info("Keystream stopped");
    })();
    return stopping;
  };
  return { url, stop };
}
