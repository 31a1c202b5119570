import type { Command } from "commander";
import { activityErrorMessage } from "../../activity/domain/errors.js";
import { type CommandContext, CommandError } from "../context.js";

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new CommandError("give the event with --json '<event>' or on stdin");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function registerActivityCommands(
  program: Command,
  context: CommandContext,
  stdin: () => Promise<string> = readStdin,
): void {
  program
    .command("activity:publish")
    .description(
      "publish an activity (JSON event from --json or stdin; affectedusers: [...] writes one row each); prints the ids",
    )
    .option("--json <event>", "the event as JSON (an object, or an array of objects)")
    .option(
      "--idempotency-key <key>",
      "publish at most once per key within 24 h: a retry with the same key and event prints the first ids and writes nothing",
    )
    .action(async (options: { json?: string; idempotencyKey?: string }) => {
      const text = options.json ?? (await stdin());
      let input: unknown;
      try {
        input = JSON.parse(text);
      } catch (error) {
        throw new CommandError(`the event is not valid JSON: ${(error as Error).message}`);
      }
      const { activity } = await context.open();
      const result =
        options.idempotencyKey === undefined
          ? await activity.publish(input)
          : await activity.publishOnce(input, { kind: "occ" }, options.idempotencyKey);
      if (!result.ok) throw new CommandError(`nothing published: ${activityErrorMessage(result.error)}`);
      const ids = Array.isArray(result.value) ? result.value : result.value.ids;
      for (const id of ids) context.print(String(id));
    });

  program
    .command("activity:expire")
    .description("delete activities older than activity_expire_days (default 365)")
    .action(async () => {
      const { activity, settings } = await context.open();
      const deleted = await activity.expire();
      context.print(`Deleted ${deleted} activities older than ${Math.max(1, settings.get("activity_expire_days"))} days`);
    });
}
