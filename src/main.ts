import { readEnvironment } from "./config/environment.js";
import { isEntryPoint } from "./entry-point.js";
import { startServer } from "./server.js";
import { PRIVATE_UMASK } from "./storage/data-dir-permissions.js";

/** `npm start` / `./occ serve`: run until SIGTERM or SIGINT, then shut down gracefully. */
export async function main(): Promise<void> {
  // Whatever the process creates in the data directory later is owner-only too (security review #9).
  process.umask(PRIVATE_UMASK);
  const server = await startServer(readEnvironment());
  process.stdout.write(`Keystream is running at ${server.url}/ (status: ${server.url}/status.php)\n`);
  const shutdown = (signal: string) => {
    process.stdout.write(`${signal} received, finishing in-flight requests…\n`);
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}

if (isEntryPoint(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`Keystream failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
