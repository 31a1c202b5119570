import type { MessageKey, Translator } from "../../i18n/index.js";
import { SafeHtml } from "../html.js";

/** Escaping for element content (never an attribute): quotes may stay as typed. */
function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * A translated sentence with markup in its placeholders ("You are logged in as {{user}}." with
 * `user` in <strong>), for element content: the translation's own text is escaped like any other text, and only the
 * given SafeHtml values are inserted as markup, so a translation can never inject markup.
 */
export function translatedHtml(
  translator: Translator,
  key: MessageKey,
  values: Readonly<Record<string, SafeHtml | string | number>>,
): SafeHtml {
  const names = Object.keys(values);
  // Placeholders become markers no catalogue text contains, escaping leaves them alone.
  const markers = Object.fromEntries(names.map((name, i) => [name, `\uE000${i}\uE001`]));
  const text = escapeText(translator.t(key, markers));
  return new SafeHtml(
    text.replace(/\uE000(\d+)\uE001/g, (_match, index: string) => {
      const value = values[names[Number(index)] as string];
      return value instanceof SafeHtml ? value.value : escapeText(String(value));
    }),
  );
}
