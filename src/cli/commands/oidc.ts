import type { Command } from "commander";
import type { CommandContext } from "../context.js";

/** `oidc:*`: OpenID Connect administration (issue 15). */
export function registerOidcCommands(program: Command, context: CommandContext): void {
  program
    .command("oidc:rotate-key")
    .description(
      "Adds a new ID token signing key; the previous keys stop signing but stay published (JWKS) for oidc.key_grace_period seconds",
    )
    .action(async () => {
      const { oidc, settings } = await context.open();
      // Make sure a key exists first, so a rotation on a fresh install still leaves one retired key.
      await oidc.keys.ensure();
      const rotated = await oidc.keys.rotate();
      // Key ids only: the keys themselves are never printed or logged.
      context.print(`New signing key: ${rotated.kid}`);
      const grace = settings.get("oidc.key_grace_period");
      for (const kid of rotated.retired) context.print(`Retired (published for ${grace} more seconds): ${kid}`);
      if (rotated.deleted > 0) context.print(`Deleted ${rotated.deleted} keys past their grace period.`);
    });
}
