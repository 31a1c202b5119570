import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { CommandContext } from "../../src/cli/context.js";
import { buildProgram } from "../../src/cli/occ.js";
import { DEFAULT_SERVER_TIMEOUTS } from "../../src/config/timeouts.js";
import { keystreamRelease } from "../../src/product.js";
import { REPO_ROOT } from "../support/occ.js";

/** The program as `./occ` builds it, for walking its command tree (nothing is opened). */
export function commandTree(): Command {
  const context = new CommandContext(() => {}, {
    host: "127.0.0.1",
    port: 0,
    dataDir: path.join(os.tmpdir(), "keystream-never-opened"),
    databaseUrl: undefined,
    logLevel: "silent",
    trustedProxies: [],
    timeouts: DEFAULT_SERVER_TIMEOUTS,
  });
  return buildProgram(context);
}

export function longOptionsOf(command: Command): string[] {
  return command.options.map((option) => option.long).filter((long): long is string => Boolean(long));
}

/**
 * Commands that perform an action and report it in a sentence (ownCloud's texts): no data to
 * format, so no `--output`. Every other command prints data and must take `--output`; a new
 * command lands in one list or the other, or the `--output` test fails.
 */
export const SENTENCE_COMMANDS = new Set([
  "user:add",
  "user:delete",
  "user:disable",
  "user:enable",
  "user:resetpassword",
  "user:modify",
  "user:set-avatar",
  "user:remove-avatar",
  "group:add",
  "group:delete",
  "group:add-member",
  "group:remove-member",
  "config:system:set",
  "config:system:delete",
  "oauth2:modify-client",
  "oauth2:remove-client",
  "security:bruteforce:reset",
  "db:convert-type",
  "twofactorauth:disable",
  "twofactorauth:enforce",
  // A long-running process and a shell script: neither is data.
  "serve",
  "completion",
]);

/** The package's own version, which `--version` and `status` must report. */
export function packageVersion(): string {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version;
}

/**
 * What `--version` prints after the name: the package's version and, in a git checkout, the commit
 * (its first 12 digits) as git itself names it.
 */
export function packageRelease(): string {
  return keystreamRelease();
}

/** A directory that is not (yet) a Keystream instance. */
export function emptyDirectory(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "keystream-empty-"));
}

/** Every path below `dir`, relative, sorted: "nothing was created" compares these. */
export function treeOf(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}
