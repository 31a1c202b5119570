/** The printed table of a bench run. */

export interface Line {
  scenario: string;
  target: string;
  value: number;
  unit: string;
  /** Server CPU µs per 2xx answer (throughput scenarios). */
  cpu?: number | null;
  reference: string;
  ratio: number | null;
  goal?: string | undefined;
}

export function table(lines: Line[]): string {
  const header = ["scenario", "server", "median", "CPU µs/req", "reference", "ratio", "target"];
  const body = lines.map((l) => [
    l.scenario,
    l.target,
    `${l.unit === "ms" ? l.value.toFixed(2) : Math.round(l.value).toLocaleString("en")} ${l.unit}`,
    l.cpu === undefined || l.cpu === null ? "" : String(Math.round(l.cpu)),
    l.reference,
    l.ratio === null ? "–" : `${l.ratio.toFixed(2)}×`,
    l.goal ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 2 || i === 3 || i === 5 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(" | ");
  return [fmt(header), widths.map((w) => "-".repeat(w)).join("-+-"), ...body.map(fmt)].join("\n");
}
