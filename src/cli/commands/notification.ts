import type { Command } from "commander";
import { LONG_MESSAGE_MAX, OBJECT_FIELD_MAX, SHORT_MESSAGE_MAX } from "../../notifications/domain/kinds.js";
import { type CommandContext, CommandError } from "../context.js";

/** What Generate.php answers to each refusal (the object's is Keystream's: upstream does not check it). */
const REFUSALS = {
  short_message: "Too long or empty short-message",
  long_message: "Too long long-message",
  object: `--object-type and --object-id go together, each 1 to ${OBJECT_FIELD_MAX} characters`,
} as const;

/**
 * Nextcloud's `notification:generate` (nextcloud/notifications lib/Command/Generate.php): an
 * administrator's message to one user, shown by their desktop and mobile clients. Its texts are
 * shown as given, in every language; the user cannot switch these off.
 */
export function registerNotificationCommands(program: Command, context: CommandContext): void {
  program
    .command("notification:generate")
    .summary("send a notification to a user")
    .description(
      "Generate a notification for the given user: an administrator's message, shown by the user's desktop and mobile " +
        "clients. With --object-type and --object-id, the user's earlier notification about the same object is replaced.",
    )
    .argument("<user-id>", "User ID of the user to notify")
    .argument("<short-message>", `Short message to be sent to the user (max. ${SHORT_MESSAGE_MAX} characters)`)
    .option("-l, --long-message <message>", `Long message to be sent to the user (max. ${LONG_MESSAGE_MAX} characters)`, "")
    .option(
      "--object-type <type>",
      `with --object-id: replaces the user's earlier notification about it (max. ${OBJECT_FIELD_MAX} characters)`,
    )
    .option("--object-id <id>", `with --object-type (max. ${OBJECT_FIELD_MAX} characters)`)
    .option("--output-id-only", "print only the new notification's id")
    .action(
      async (
        uid: string,
        short: string,
        options: { longMessage: string; objectType?: string; objectId?: string; outputIdOnly?: boolean },
      ) => {
        const { users, notifications, log } = await context.open();
        if (!(await users.find(uid))) throw new CommandError("Unknown user");
        const result = await notifications.adminMessage(uid, {
          short,
          long: options.longMessage,
          objectType: options.objectType,
          objectId: options.objectId,
        });
        if (!result.ok) throw new CommandError(REFUSALS[result.refusal]);
        log.info({ event: "notification_generated", uid, id: result.id, by: "occ" }, "administrator's notification sent");
        if (options.outputIdOnly) {
          context.print(String(result.id));
          return;
        }
        if (result.replaced > 0) {
          context.print(`Previous notification for ${options.objectType}/${options.objectId} marked as processed`);
        }
        context.print(`Notification with ID ${result.id}`);
      },
    );
}
