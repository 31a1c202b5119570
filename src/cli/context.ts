import { type Environment, readEnvironment } from "../config/environment.js";
import type { Services } from "../services.js";

/** A refused command: exit code 1, its message on one line of stderr. */
export class CommandError extends Error {}

/**
 * What a command works with: the same services the server uses, on the same database. Opened on
 * first use (so `--help` touches nothing) and migrated, so a command on a fresh data directory works.
 */
export class CommandContext {
  private services: Services | undefined;
  readonly environment: Environment;

  constructor(
    readonly out: (text: string) => void = (text) => process.stdout.write(text),
    environment?: Environment,
  ) {
    this.environment = environment ?? readEnvironment();
  }

  async open(): Promise<Services> {
    if (this.services) return this.services;
    // Loaded here, not at the top: `--help` and argument errors answer without loading the
    // database drivers and every domain module.
    const [{ default: pino }, { createServices }, { openStorage }, { migrateToLatest }] = await Promise.all([
      import("pino"),
      import("../services.js"),
      import("../storage/connect.js"),
      import("../storage/migrate.js"),
    ]);
    const storage = openStorage({
      databaseUrl: this.environment.databaseUrl,
      dataDir: this.environment.dataDir,
      timeouts: {
        connectMs: this.environment.database?.connectTimeoutMs,
        statementMs: this.environment.database?.statementTimeoutMs,
      },
    });
    await migrateToLatest(storage);
    // Commands print their own results; the structured log goes to stderr, warnings only.
    const log = pino({ level: process.env.LOG_LEVEL ?? "warn" }, pino.destination(2));
    this.services = createServices({ storage, dataDir: this.environment.dataDir, log });
    return this.services;
  }

  async close(): Promise<void> {
    await this.services?.storage.close();
    this.services = undefined;
  }

  print(line = ""): void {
    this.out(`${line}\n`);
  }
}

/** Parses an ownCloud-style boolean argument (`true`/`false`, also 1/0, yes/no). */
export function parseBooleanArgument(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  const lowered = value.toLowerCase();
  if (["true", "1", "yes"].includes(lowered)) return true;
  if (["false", "0", "no"].includes(lowered)) return false;
  throw new CommandError(`${name} must be true or false, got "${value}"`);
}

export function printList(context: CommandContext, output: string, plain: () => void, data: unknown): void {
  if (output === "json") context.print(JSON.stringify(data));
  else if (output === "json_pretty") context.print(JSON.stringify(data, null, 4));
  else if (output === "plain") plain();
  else throw new CommandError(`--output must be plain, json or json_pretty, got "${output}"`);
}
