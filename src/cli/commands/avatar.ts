import fs from "node:fs";
import type { Command } from "commander";
import { type CommandContext, CommandError, valueOrExit } from "../context.js";

export function registerAvatarCommands(program: Command, context: CommandContext): void {
  program
    .command("user:set-avatar")
    .summary("set a user's avatar")
    .description("Set a user's avatar from a PNG or JPEG file (the OAuth userinfo `picture`).")
    .argument("<uid>")
    .argument("<file>")
    .action(async (uid: string, file: string) => {
      let data: Buffer;
      try {
        data = fs.readFileSync(file);
      } catch (error) {
        throw new CommandError(`cannot read ${file}: ${(error as Error).message}`);
      }
      const { users, avatars } = await context.open();
      valueOrExit(await users.require(uid));
      valueOrExit(await avatars.set(uid, data));
      context.print(`The avatar of "${uid}" was set`);
    });

  program
    .command("user:remove-avatar")
    .summary("remove a user's avatar")
    .description("Remove a user's avatar.")
    .argument("<uid>")
    .action(async (uid: string) => {
      const { avatars } = await context.open();
      if (!(await avatars.remove(uid))) throw new CommandError(`The user "${uid}" has no avatar`);
      context.print(`The avatar of "${uid}" was removed`);
    });
}
