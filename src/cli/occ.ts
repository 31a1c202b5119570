import { Command, CommanderError } from "commander";
import { runInAuditContext } from "../audit/context.js";
import { OCC_ACTOR } from "../audit/domain/kinds.js";
import { isEntryPoint } from "../entry-point.js";
import { keystreamRelease, PRODUCT } from "../product.js";
import { PRIVATE_UMASK } from "../storage/driver/data-dir-permissions.js";
import { registerActivityCommands } from "./commands/activity.js";
import { registerAvatarCommands } from "./commands/avatar.js";
import { registerCompletionCommand } from "./commands/completion.js";
import { registerConfigCommands } from "./commands/config.js";
import { registerDbCommands } from "./commands/db.js";
import { registerGroupCommands } from "./commands/group.js";
import { registerMaintenanceCommands } from "./commands/maintenance.js";
import { registerNotificationCommands } from "./commands/notification.js";
import { registerOAuth2Commands } from "./commands/oauth2.js";
import { registerOidcCommands } from "./commands/oidc.js";
import { registerSecurityAuditCommand, registerSecurityCommands } from "./commands/security.js";
import { registerStatusCommand } from "./commands/status.js";
import { registerTwoFactorAuthCommands } from "./commands/twofactorauth.js";
import { registerUserCommands } from "./commands/user.js";
import { registerUserInfoCommands } from "./commands/user-info.js";
import { registerUserSettingCommand } from "./commands/user-setting.js";
import { CommandContext, CommandError } from "./context.js";
import { configureHelpLayout, helpOfUnknownCommandAsUnknown, pointUsageHintsToHelp, registerListCommand } from "./help.js";

/** Exit codes, as ownCloud's occ (Symfony console) and shell conventions have them. */
export const EXIT_SUCCESS = 0;
/** The command ran and was refused or failed (a domain error): its message on one line of stderr. */
export const EXIT_FAILURE = 1;
/** The command line itself is wrong (unknown command or option, missing argument, bad option value). */
export const EXIT_USAGE = 2;

/** The audit context of an occ command: the actor is `occ`, there is no address or request. */
const OCC_AUDIT_CONTEXT = { actor: () => OCC_ACTOR };

/** Commands that touch no file and no database: anyone may run them (help and --version need no command). */
const TOUCHES_NOTHING = new Set(["list", "completion"]);

/** Commander's command with one change: `--displayname=Carol` is matched as `--displayname` for "did you mean". */
class OccCommand extends Command {
  override createCommand(name?: string): Command {
    return new OccCommand(name);
  }

  /** Commander's (undeclared in its types) handler of an unknown option; the value is no part of the name. */
  unknownOption(flag: string): never {
    const original = (Command.prototype as unknown as { unknownOption(flag: string): never }).unknownOption;
    return original.call(this, flag.replace(/=.*$/s, ""));
  }
}

/** Builds the `occ` program; tests run it in-process with their own context. */
export function buildProgram(context: CommandContext): Command {
  const program = new OccCommand("occ")
    .description("Keystream administration, as ownCloud's occ (run ./occ list for the commands).")
    .version(`${PRODUCT.name} ${keystreamRelease()}`, "-V, --version", "print the Keystream version (and commit)")
    .helpOption("-h, --help", "display help for the command")
    .configureOutput({ writeOut: (text) => context.out(text), writeErr: (text) => context.err(text) })
    .exitOverride();
  configureHelpLayout(program);
  program.helpCommand("help [command]", "display help for a command");
  registerListCommand(program, context);
  registerStatusCommand(program, context);
  registerCompletionCommand(program, context);
  registerUserCommands(program, context);
  registerUserInfoCommands(program, context);
  registerUserSettingCommand(program, context);
  registerGroupCommands(program, context);
  registerConfigCommands(program, context);
  registerMaintenanceCommands(program, context);
  registerDbCommands(program, context);
  registerOAuth2Commands(program, context);
  registerOidcCommands(program, context);
  registerAvatarCommands(program, context);
  registerActivityCommands(program, context);
  registerSecurityCommands(program, context);
  registerSecurityAuditCommand(program, context);
  registerTwoFactorAuthCommands(program, context);
  registerNotificationCommands(program, context);
  pointUsageHintsToHelp(program);
  return program;
}

/**
 * Runs one command and returns its exit code: 0 success; 1 a refused or failed command (one line
 * on stderr); 2 a usage error, which commander reports with a hint to the right help. `./occ`
 * alone lists the commands, as ownCloud's does.
 */
export async function runOcc(argv: string[], context = new CommandContext()): Promise<number> {
  const program = buildProgram(context);
  // Every command that reads or writes the instance runs as the data directory's owner only.
  program.hook("preAction", (_program, command) => {
    if (!TOUCHES_NOTHING.has(command.name())) context.assertRunsAsOwner(argv);
  });
  try {
    const parse = () =>
      program.parseAsync(argv.length === 0 ? ["list"] : helpOfUnknownCommandAsUnknown(program, argv), { from: "user" });
    // What a command changes is audited as done by occ (audit/context.ts); `serve` runs the server,
    // whose requests carry their own context.
    await (argv[0] === "serve" ? parse() : runInAuditContext(OCC_AUDIT_CONTEXT, parse));
    return EXIT_SUCCESS;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed its message (or the help / the version, with exit code 0).
      return error.exitCode === 0 ? EXIT_SUCCESS : EXIT_USAGE;
    }
    const known = error instanceof CommandError;
    const message = error instanceof Error ? error.message : String(error);
    // An empty CommandError: the command already said on stderr what failed (group:add-member).
    if (message !== "" || !known) context.err(`${known ? "" : "error: "}${message.split("\n")[0]}\n`);
    return EXIT_FAILURE;
  } finally {
    await context.close();
  }
}

if (isEntryPoint(import.meta.url)) {
  // Files a command creates in the data directory (database, config.json, key) are owner-only.
  process.umask(PRIVATE_UMASK);
  runOcc(process.argv.slice(2)).then((code) => {
    // `serve` returns only when it could not start (or was refused): the server keeps the process otherwise.
    if (process.argv[2] !== "serve" || code !== EXIT_SUCCESS) process.exit(code);
  });
}
