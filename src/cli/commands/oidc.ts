import type { Command } from "commander";
import type { CommandContext } from "../context.js";
import { type OutputFormat, outputOption, printData } from "../output.js";

/** `oidc:*`: OpenID Connect administration (the provider's signing keys; docs/openid-connect.md). */
export function registerOidcCommands(program: Command, context: CommandContext): void {
  program
    .command("oidc:rotate-key")
    .summary("add a new ID token signing key")
    .description(
      "Add a new ID token signing key; the previous keys stop signing but stay published (JWKS) for " +
        "oidc.key_grace_period seconds, then are deleted. Prints key ids only, never keys.",
    )
    .addOption(outputOption())
    .action(async (options: { output: OutputFormat }) => {
      const { oidc, settings } = await context.open();
      // Make sure a key exists first, so a rotation on a fresh install still leaves one retired key.
      await oidc.keys.ensure();
      const rotated = await oidc.keys.rotate();
      const grace = settings.get("oidc.key_grace_period");
      printData(
        context,
        options.output,
        { kid: rotated.kid, retired: rotated.retired, deleted: rotated.deleted, gracePeriodSeconds: grace },
        () => {
          context.print(`New signing key: ${rotated.kid}`);
          for (const kid of rotated.retired) context.print(`Retired (published for ${grace} more seconds): ${kid}`);
          if (rotated.deleted > 0) context.print(`Deleted ${rotated.deleted} keys past their grace period.`);
        },
      );
    });
}
