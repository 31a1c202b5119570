import fs from "node:fs";
import path from "node:path";
import { CONFIG_VARIABLE, processSettingDefinitions } from "./environment.js";
import { ConfigurationError, readJsonObject, validateObject } from "./setting.js";

/**
 * Points the configuration file (the one readEnvironment reads: KEYSTREAM_CONFIG, else
 * `<app root>/config/keystream.json`) at another database: its `database_url` key, the other keys
 * kept. Prepared first (a temporary file beside it, owner-only, synced), so that a file that cannot
 * be written is known before anything else is done; then put in place by one rename, which is atomic.
 */
export interface DatabaseUrlUpdate {
  /** The real file that changes (a symlinked configuration file is changed where it lives). */
  readonly file: string;
  /** Moves the prepared file into place. */
  apply(): void;
  /** Puts the previous file back (or removes the new one, if there was none) after `apply`. */
  undo(): void;
  /** Removes the prepared file when the change is abandoned. */
  discard(): void;
}

export function prepareDatabaseUrlUpdate(configPath: string, databaseUrl: string): DatabaseUrlUpdate {
  const file = fs.existsSync(configPath) ? fs.realpathSync(configPath) : configPath;
  const previous = fs.existsSync(file) ? fs.readFileSync(file) : undefined;
  const settings: Record<string, unknown> = previous === undefined ? {} : readJsonObject(file);
  // database_url_file and database_password_file described the database being left: the new URL
  // carries its own password, and both keys beside database_url would be refused at the next start.
  delete settings.database_url_file;
  delete settings.database_password_file;
  settings.database_url = databaseUrl;
  const { problems } = validateObject(processSettingDefinitions, settings);
  if (problems.length > 0) throw new ConfigurationError(`${file}: ${problems.join("; ")}`);
  const directory = path.dirname(file);
  const prepared = path.join(directory, `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    fs.mkdirSync(directory, { recursive: true });
    // The URL may hold the database password: readable by its owner only (the server's account).
    const descriptor = fs.openSync(prepared, "wx", 0o600);
    try {
      fs.writeFileSync(descriptor, `${JSON.stringify(settings, null, 2)}\n`);
      fs.fsyncSync(descriptor);
    } finally {
      fs.closeSync(descriptor);
    }
  } catch (error) {
    fs.rmSync(prepared, { force: true });
    throw new ConfigurationError(
      `cannot write the configuration file ${file} (${(error as Error).message}); run as the user who owns it, or name a writable one with ${CONFIG_VARIABLE}`,
    );
  }
  return {
    file,
    apply: () => fs.renameSync(prepared, file),
    undo: () => {
      if (previous === undefined) fs.rmSync(file, { force: true });
      else fs.writeFileSync(file, previous, { mode: 0o600 });
    },
    discard: () => fs.rmSync(prepared, { force: true }),
  };
}
