import { isEntryPoint } from "./entry-point.js";
import { leanStartUp } from "./start-up-memory.js";

/**
 * `npm start` / `./occ serve`: run until SIGTERM or SIGINT, then shut down gracefully. Everything on
 * stdout is a JSON log line (observability/logging.ts), so it pipes into jq; a failure to start is also
 * written as one plain line on stderr, for whoever started the process by hand.
 */
export async function main(): Promise<void> {
  // Before the server's modules load: what their loading leaves in memory (start-up-memory.ts) is
  // why they are imported here, not at the top.
  const startedUp = leanStartUp();
  const [{ readEnvironment }, { createServerLog, startServer }, { PRIVATE_UMASK }] = await Promise.all([
    import("./config/environment.js"),
    import("./server.js"),
    import("./storage/driver/data-dir-permissions.js"),
  ]);
  // Whatever the process creates in the data directory later is owner-only too
  // (storage/driver/data-dir-permissions.ts).
  process.umask(PRIVATE_UMASK);
  const environment = readEnvironment();
  const log = createServerLog(environment.logLevel);
  const server = await startServer(environment, log).catch((error: unknown) => {
    log.fatal({ event: "start_failed", err: error }, "Keystream failed to start");
    throw error;
  });
  startedUp(server.settled);
  log.info(
    { event: "started", url: server.url, metricsUrl: server.metricsUrl },
    `Keystream is running at ${server.url}/ (status: ${server.url}/status.php)`,
  );
  const shutdown = (signal: string) => {
    log.info({ event: "stopping", signal }, `${signal} received, finishing in-flight requests…`);
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.fatal({ event: "stop_failed", err: error }, "shutdown failed");
        process.stderr.write(`shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
  // SIGHUP, which daemons take as "re-read your configuration" (and which a closed terminal sends):
  // config.json is read again now; the log goes to standard output, which has nothing to reopen.
  process.on("SIGHUP", () => {
    const problem = server.reload();
    if (problem === undefined) {
      log.info({ event: "configuration_reread", signal: "SIGHUP" }, "SIGHUP received: config.json re-read");
    } else {
      log.warn(
        { event: "configuration_reread", signal: "SIGHUP", problem },
        `SIGHUP received: config.json kept its last good values: ${problem}`,
      );
    }
  });
}

if (isEntryPoint(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`Keystream failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
