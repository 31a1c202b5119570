import { Argument, type Command } from "commander";
import { type AddressBucketState, InvalidAddressError } from "../../security/address-throttles.js";
import { CLIENT_ADDRESS_NAMESPACES } from "../../security/domain/throttle-policy.js";
import { type CommandContext, CommandError } from "../context.js";
import { type OutputFormat, outputOption, printData } from "../output.js";

/** Nextcloud's refusal of text that is not an IP address: exit 1 with `"x" is not a valid IP address`. */
async function forAddress<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InvalidAddressError) throw new CommandError(error.message);
    throw error;
  }
}

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
      const states = await forAddress(() => addressThrottles.states(ip, action));
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
      const states = await forAddress(() => addressThrottles.reset(ip));
      const countedAs = states[0]?.countedAs ?? ip;
      const address = countedAs === ip ? ip : `${ip} (counted as ${countedAs})`;
      const failures = sum(states, (state) => state.failures);
      context.print(`The throttle of ${address} was reset: ${failures} failed attempt${failures === 1 ? "" : "s"} forgotten`);
    });
}
