import { Option } from "commander";
import type { CommandContext } from "./context.js";

/**
 * ownCloud's `--output=plain|json|json_pretty`, defined once: every command that prints data adds
 * it with `.addOption(outputOption())` and prints through `printData`, so the formats cannot differ per command.
 * A value outside the list is a usage error (exit 2), answered by commander.
 */
export const OUTPUT_FORMATS = ["plain", "json", "json_pretty"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function outputOption(): Option {
  return new Option("--output <format>", "output format").choices(OUTPUT_FORMATS).default("plain");
}

/** PHP's json_encode, as ownCloud's occ prints it: slashes escaped, json_pretty indented by 4. */
export function encodeJson(value: unknown, format: "json" | "json_pretty"): string {
  return JSON.stringify(value, null, format === "json_pretty" ? 4 : undefined).replace(/\//g, "\\/");
}

type Plain = string | number | boolean | null | undefined;
type Data = Plain | readonly Data[] | { readonly [key: string]: Data };

/**
 * Prints `data` in the chosen format. Plain is ownCloud's list layout (`  - key: value`, nested
 * objects indented under `  - key:`) unless the command gives its own sentence(s) for humans.
 */
export function printData(context: CommandContext, format: OutputFormat, data: Data, plain?: () => void): void {
  if (format !== "plain") context.print(encodeJson(data, format));
  else if (plain) plain();
  else printPlain(context, data, "  - ");
}

function printPlain(context: CommandContext, data: Data, prefix: string): void {
  if (data === null || typeof data !== "object") {
    context.print(`${prefix}${String(data)}`);
    return;
  }
  const entries: Array<[string | undefined, Data]> = Array.isArray(data)
    ? data.map((item: Data) => [undefined, item])
    : Object.entries(data as { [key: string]: Data });
  for (const [key, value] of entries) {
    if (value !== null && typeof value === "object") {
      if (key !== undefined) context.print(`${prefix}${key}:`);
      printPlain(context, value, `  ${prefix}`);
    } else if (key === undefined) {
      context.print(`${prefix}${String(value)}`);
    } else {
      context.print(value === undefined || value === null ? `${prefix}${key}` : `${prefix}${key}: ${String(value)}`);
    }
  }
}
