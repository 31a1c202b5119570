import type { Command } from "commander";
import { activityErrorMessage } from "../../activity/domain/errors.js";
import type { FileLogReport } from "../../activity/file-log-follower.js";
import { type CommandContext, CommandError } from "../context.js";
import { type OutputFormat, outputOption, printData } from "../output.js";

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
    .summary("publish activities; prints their ids")
    .description(
      "Publish an activity: a JSON event from --json or stdin (affectedusers: [...] writes one row each); prints the new ids.",
    )
    .option("--json <event>", "the event as JSON (an object, or an array of objects)")
    .option(
      "--idempotency-key <key>",
      "publish at most once per key within 24 h: a retry with the same key and event prints the first ids and writes nothing",
    )
    .addOption(outputOption())
    .action(async (options: { json?: string; idempotencyKey?: string; output: OutputFormat }) => {
      const text = options.json ?? (await stdin());
      let input: unknown;
      try {
        input = JSON.parse(text);
      } catch (error) {
        throw new CommandError(`the event is not valid JSON: ${(error as Error).message}`);
      }
      const { activity } = await context.open({ create: true });
      const result =
        options.idempotencyKey === undefined
          ? await activity.publish(input)
          : await activity.publishOnce(input, { kind: "occ" }, options.idempotencyKey);
      if (!result.ok) throw new CommandError(`nothing published: ${activityErrorMessage(result.error)}`);
      const ids = Array.isArray(result.value) ? result.value : result.value.ids;
      printData(context, options.output, { ids }, () => {
        for (const id of ids) context.print(String(id));
      });
    });

  program
    .command("activity:expire")
    .summary("delete activities past activity_expire_days")
    .description("Delete activities older than activity_expire_days (default 365), as the daily job does.")
    .addOption(outputOption())
    .action(async (options: { output: OutputFormat }) => {
      const { activity, settings } = await context.open();
      const days = Math.max(1, settings.get("activity_expire_days"));
      context.progress(`activity:expire: deleting activities older than ${days} days…`);
      const deleted = await activity.expire();
      printData(context, options.output, { deleted, days }, () =>
        context.print(`Deleted ${deleted} activities older than ${days} days`),
      );
    });

  program
    .command("activity:import-file-log")
    .summary("turn a proxy access log into file activities")
    .description(
      "Read a keystream_files access log (deploy/nginx/keystream-files-log.conf) from where it was last read and publish a file activity for each successful WebDAV write, at most once per request, as the server does with activity.file_log.",
    )
    .argument("<file>", "the log file")
    .addOption(outputOption())
    .action(async (file: string, options: { output: OutputFormat }) => {
      const { fileLog } = await context.open();
      let report: FileLogReport;
      try {
        report = await fileLog.importFile(file);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") {
          throw new CommandError(`cannot read ${file}: ${(error as Error).message}`);
        }
        throw error;
      }
      printData(context, options.output, { ...report }, () =>
        context.print(
          `Read ${report.lines} lines: ${report.published} activities published, ${report.ignored} no file change, ${report.unusable} unusable`,
        ),
      );
    });
}
