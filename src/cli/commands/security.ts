import { Argument, type Command } from "commander";
import { AUDIT_KINDS } from "../../audit/domain/kinds.js";
import { auditEventJson } from "../../audit/domain/present.js";
import { type AuditQueryText, DEFAULT_PAGE_SIZE, parseAuditQuery } from "../../audit/domain/query.js";
import type { AddressBucketState } from "../../security/address-throttles.js";
import { CLIENT_ADDRESS_NAMESPACES } from "../../security/domain/throttle-policy.js";
import { type CommandContext, valueOrExit } from "../context.js";
import { encodeJson, type OutputFormat, outputOption, printData } from "../output.js";

/** The most events one `security:audit` prints (a larger export: the admin page's JSON lines). */
const OCC_MAX_LIMIT = 10_000;

const sum = (states: AddressBucketState[], pick: (state: AddressBucketState) => number) =>
  states.reduce((total, state) => total + pick(state), 0);
const most = (states: AddressBucketState[], pick: (state: AddressBucketState) => number) => Math.max(0, ...states.map(pick));

/**
 * Nextcloud's brute-force commands (nextcloud/server `core/Command/Security/BruteforceAttempts.php`
 * and `BruteforceResetAttempts.php`) over Keystream's throttles of client addresses
 * (security/domain/throttle-policy.ts): Nextcloud's "action" is the throttle's namespace.
 */
export function registerSecurityCommands(program: Command, context: CommandContext): void {
  program
    .command("security:bruteforce:attempts")
    .summary("show how the throttle counts a client address")
    .description(
      "Show the failed attempts of a client address that still count and the delay its next attempt " +
        "waits (the longest over the throttles; also per throttle, with attempts in flight and the " +
        "seconds of a lockout), as Nextcloud's. Keystream has no bypass list: bypass-listed is false.",
    )
    .argument("<ipaddress>", "the client address (IPv4 or IPv6)")
    .addArgument(
      new Argument(
        "[action]",
        "one throttle only: login (form, Basic), oauth (token endpoints), flowstart, flowpoll (Login Flow v2), devicecode (device user codes), register (client registration), 2fa (second factor)",
      ).choices(CLIENT_ADDRESS_NAMESPACES),
    )
    .addOption(outputOption())
    .action(async (ip: string, action: string | undefined, options: { output: OutputFormat }) => {
      const { addressThrottles } = await context.open();
      const states = valueOrExit(await addressThrottles.states(ip, action));
      // Nextcloud's plain output gives the delay with its unit.
      const delay = (ms: number) => (options.output === "plain" ? `${ms} ms` : ms);
      printData(context, options.output, {
        "bypass-listed": false,
        attempts: sum(states, (state) => state.failures),
        delay: delay(most(states, (state) => state.delayMs)),
        "counted-as": states[0]?.countedAs ?? ip,
        throttles: Object.fromEntries(
          states.map((state) => [
            state.namespace,
            {
              attempts: state.failures,
              "in-flight": state.inFlight,
              delay: delay(state.delayMs),
              "lockout-seconds": state.lockedSeconds,
            },
          ]),
        ),
      });
    });

  program
    .command("security:bruteforce:reset")
    .summary("lift the throttle of a client address")
    .description(
      "Forget a client address's failed attempts and attempts in flight in every throttle (login, " +
        "token endpoints, Login Flow v2, second factor), as Nextcloud's. A user name's own login throttle stays.",
    )
    .argument("<ipaddress>", "the client address (IPv4 or IPv6)")
    .action(async (ip: string) => {
      const { addressThrottles } = await context.open();
      const states = valueOrExit(await addressThrottles.reset(ip));
      const countedAs = states[0]?.countedAs ?? ip;
      const address = countedAs === ip ? ip : `${ip} (counted as ${countedAs})`;
      const failures = sum(states, (state) => state.failures);
      context.print(`The throttle of ${address} was reset: ${failures} failed attempt${failures === 1 ? "" : "s"} forgotten`);
    });
}

/** `./occ security:audit`: the audit log (src/audit), newest first, with the administrators' page's filters. */
export function registerSecurityAuditCommand(program: Command, context: CommandContext): void {
  program
    .command("security:audit")
    .summary("show the audit log")
    .description(
      "Show audit events, newest first: sign-ins, sessions ended, app passwords, OAuth grants, and " +
        "every administrative change (users, clients, host settings, second factors). Times are a " +
        "date (2026-11-27, UTC), an ISO 8601 time or epoch seconds; --before takes the id of the " +
        "oldest event of the page before, for the next older page.",
    )
    .option("--user <uid>", "events concerning this user or done by them")
    .option("--kind <kind>", `one kind of event: ${AUDIT_KINDS.join(", ")}`)
    .option("--since <time>", "events at or after this time")
    .option("--until <time>", "events before this time")
    .option("--before <id>", "events older than the event with this id")
    .option("--limit <n>", `at most this many events (1 to ${OCC_MAX_LIMIT})`, String(DEFAULT_PAGE_SIZE))
    .addOption(outputOption())
    .action(async (options: AuditQueryText & { output: OutputFormat }) => {
      const query = valueOrExit(parseAuditQuery(options, DEFAULT_PAGE_SIZE, OCC_MAX_LIMIT));
      const { audit } = await context.open();
      const events = (await audit.query(query)).map(auditEventJson);
      // The detail is free-form JSON: printed as JSON in every format.
      if (options.output !== "plain") {
        context.print(encodeJson(events, options.output));
        return;
      }
      for (const e of events) {
        const subject = e.subject === null ? "" : ` ${e.subject_type}:${e.subject}`;
        const where = e.address === null ? "" : ` from ${e.address}`;
        const detail = e.detail === null ? "" : ` ${JSON.stringify(e.detail)}`;
        context.print(
          `${e.id} ${e.time} ${e.kind} by ${e.actor}${e.user === null ? "" : ` user ${e.user}`}${subject}${where}${detail}`,
        );
      }
    });
}
