import type { Language } from "./languages.js";

let serverZone: string | undefined;

/**
 * The server's own time zone (the process's TZ), for readers who have not chosen one. Asked on
 * first use: reading it loads ICU's zone data (≈ 6 MB of the process's memory), which a server
 * that renders no date never needs.
 */
function serverTimeZone(): string {
  serverZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
  return serverZone;
}

/**
 * Dates as a person reads them: in their language and time zone, through `Intl`; a
 * formatter is built once per (language, zone), as building one costs far more than using it.
 */
export interface DateFormatter {
  readonly timeZone: string;
  /** "24 Nov 2026, 14:05 CET": absolute, with the zone named. */
  dateTime(epochSeconds: number): string;
  /** "5 minutes ago", "yesterday", "in 2 hours": relative to `nowSeconds`. */
  relative(epochSeconds: number, nowSeconds: number): string;
}

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["week", 7 * 86_400],
  ["day", 86_400],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

function createDateFormatter(language: Language, timeZone: string): DateFormatter {
  const absolute = new Intl.DateTimeFormat(language, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  });
  const relative = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  return {
    timeZone,
    dateTime: (epochSeconds) => absolute.format(new Date(epochSeconds * 1000)),
    relative(epochSeconds, nowSeconds) {
      const delta = epochSeconds - nowSeconds;
      const size = Math.abs(delta);
      // The largest unit that fits; under 45 seconds reads as "now" (numeric: auto → "now").
      if (size < 45) return relative.format(0, "second");
      for (const [unit, seconds] of UNITS) {
        if (size >= seconds) return relative.format(Math.round(delta / seconds), unit);
      }
      return relative.format(0, "second");
    },
  };
}

const formatters = new Map<string, DateFormatter>();

/** The formatter for a language and an IANA zone (the server's when none is given). */
export function dateFormatterFor(language: Language, timeZone: string | null | undefined): DateFormatter {
  const zone = timeZone || serverTimeZone();
  const key = `${language} ${zone}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = createDateFormatter(language, zone);
    formatters.set(key, formatter);
  }
  return formatter;
}
