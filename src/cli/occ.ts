import { Command, CommanderError } from "commander";
import { AccountError } from "../accounts/errors.js";
import { registerActivityCommands } from "./commands/activity.js";
import { registerAvatarCommands } from "./commands/avatar.js";
import { registerConfigCommands } from "./commands/config.js";
import { registerMaintenanceCommands } from "./commands/maintenance.js";
import { registerOAuth2Commands } from "./commands/oauth2.js";
import { registerOidcCommands } from "./commands/oidc.js";
import { registerUserCommands } from "./commands/user.js";
import { CommandContext, CommandError } from "./context.js";

/** Builds the `occ` program; tests run it in-process with their own context. */
export function buildProgram(context: CommandContext): Command {
  const program = new Command("occ")
    .description("Keystream administration (run from the application root)")
    .showHelpAfterError("(run ./occ --help for the list of commands)")
    .exitOverride();
  registerUserCommands(program, context);
  registerConfigCommands(program, context);
  registerMaintenanceCommands(program, context);
  registerOAuth2Commands(program, context);
  registerOidcCommands(program, context);
  registerAvatarCommands(program, context);
  registerActivityCommands(program, context);
  return program;
}

/** Runs one command; returns the exit code (0 success, 1 error with one line on stderr). */
export async function runOcc(argv: string[], context = new CommandContext()): Promise<number> {
  const program = buildProgram(context);
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed its message (or the help, for --help / no command).
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" ? 0 : 1;
    }
    const known = error instanceof CommandError || error instanceof AccountError;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${known ? "" : "error: "}${message.split("\n")[0]}\n`);
    return 1;
  } finally {
    await context.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runOcc(process.argv.slice(2)).then((code) => {
    if (process.argv[2] !== "serve") process.exit(code);
  });
}
