import type { Command } from "commander";
import { type CommandContext, CommandError, valueOrExit } from "../context.js";
import { type OutputFormat, outputOption, printData } from "../output.js";

/** Commander's collector for a repeatable option (`--member=a --member=b`). */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * ownCloud's group commands (owncloud/core core/Command/Group/*.php), with their sentences and exit
 * codes: a member that does not exist makes add-member and remove-member exit 1 after doing the
 * rest. `group:add --display-name` is Nextcloud's. Refusals go to stderr (this occ's convention).
 */
export function registerGroupCommands(program: Command, context: CommandContext): void {
  program
    .command("group:add")
    .summary("add a group")
    .description("Adds a group. A group name is 1 to 64 characters, without a comma, control characters or outer spaces.")
    .argument("<group>", "name of the group")
    .option("--display-name <name>", "the name the console shows (default: the group name)")
    .action(async (gid: string, options: { displayName?: string }) => {
      const { groups } = await context.open({ create: true });
      const created = await groups.create(gid, options.displayName);
      if (!created.ok && created.code === "invalid_gid") {
        throw new CommandError(`Group "${gid}" could not be created: ${created.message}`);
      }
      context.print(`Created group "${valueOrExit(created).gid}"`);
    });

  program
    .command("group:delete")
    .summary("delete a group")
    .description("Deletes the specified group; its members stay. The group admin cannot be deleted.")
    .argument("<group>", "the group name")
    .action(async (gid: string) => {
      const { groups } = await context.open();
      if (!(await groups.find(gid))) throw new CommandError("Group does not exist");
      const deleted = await groups.delete(gid);
      if (!deleted.ok) throw new CommandError(`The specified group could not be deleted. ${deleted.message}`);
      context.print("The specified group was deleted");
    });

  program
    .command("group:list")
    .summary("list groups")
    .description("List groups: their names, as ownCloud prints them.")
    .argument("[search-pattern]", "restrict the list to groups whose name contains the string", "")
    .addOption(outputOption())
    .action(async (search: string, options: { output: OutputFormat }) => {
      const { groups } = await context.open();
      printData(
        context,
        options.output,
        (await groups.list(search)).map((g) => g.gid),
      );
    });

  program
    .command("group:list-members")
    .summary("list group members")
    .description("List group members: user name and display name, as ownCloud prints them.")
    .argument("<group>", "the name of the group")
    .addOption(outputOption())
    .action(async (gid: string, options: { output: OutputFormat }) => {
      const { groups } = await context.open();
      if (!(await groups.find(gid))) throw new CommandError(`Group ${gid} does not exist`);
      const members = valueOrExit(await groups.members(gid));
      // PHP's json_encode of an empty array: `[]`, as ownCloud prints a group without members.
      printData(
        context,
        options.output,
        members.length === 0 ? [] : Object.fromEntries(members.map((m) => [m.uid, m.displayName])),
      );
    });

  program
    .command("group:add-member")
    .summary("add members to a group")
    .description("Add members to a group (--member repeated for several).")
    .argument("<group>", "name of the group")
    .option("-m, --member <uid>", "the member that should be added to the group", collect, [])
    .action(async (gid: string, options: { member: string[] }) => {
      const { groups, users } = await context.open();
      if (!(await groups.find(gid))) throw new CommandError(`Group "${gid}" does not exist`);
      if (options.member.length === 0) throw new CommandError("No members specified");
      let failed = false;
      for (const uid of options.member) {
        if (!(await users.find(uid))) {
          context.err(`User "${uid}" could not be found - not added to group "${gid}"\n`);
          failed = true;
        } else if (valueOrExit(await groups.addMember(gid, uid)) === "already") {
          context.print(`User "${uid}" is already a member of group "${gid}"`);
        } else {
          context.print(`User "${uid}" added to group "${gid}"`);
        }
      }
      if (failed) throw new CommandError("");
    });

  program
    .command("group:remove-member")
    .summary("remove members from a group")
    .description("Remove member(s) from a group (--member repeated for several). The last administrator stays in admin.")
    .argument("<group>", "name of the group")
    .option("-m, --member <uid>", "the member that should be removed from the group", collect, [])
    .action(async (gid: string, options: { member: string[] }) => {
      const { groups, users } = await context.open();
      if (!(await groups.find(gid))) throw new CommandError(`Group "${gid}" does not exist`);
      if (options.member.length === 0) throw new CommandError("No members specified");
      let failed = false;
      for (const uid of options.member) {
        if (!(await users.find(uid))) {
          context.err(`Member "${uid}" does not exist - not removed from group "${gid}"\n`);
          failed = true;
          continue;
        }
        const removed = await groups.removeMember(gid, uid);
        if (!removed.ok) {
          context.err(`${removed.message}\n`);
          failed = true;
        } else if (removed.value === "removed") context.print(`Member "${uid}" removed from group "${gid}"`);
        else context.print(`Member "${uid}" could not be found in group "${gid}"`);
      }
      if (failed) throw new CommandError("");
    });
}
