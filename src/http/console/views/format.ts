import type { Translator } from "../../../i18n/index.js";

/** A stored time for a table cell, in the reader's language and time zone, with the zone named. */
export function formatDate(translator: Translator, epochSeconds: number | null): string {
  return epochSeconds === null ? translator.t("pages:settings.never") : translator.dates.dateTime(epochSeconds);
}
