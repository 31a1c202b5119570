import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { CATALOGUES } from "../../src/i18n/catalogues/index.js";
import { chooseLanguage, SUPPORTED_LANGUAGES, translatorFor } from "../../src/i18n/index.js";

describe("message catalogues", () => {
  test("every language has every English key of every namespace, and no key English lacks", () => {
    for (const [namespace, source] of Object.entries(CATALOGUES.en)) {
      const keys = Object.keys(source).sort();
      for (const language of SUPPORTED_LANGUAGES) {
        const catalogue = (CATALOGUES[language] as Record<string, Record<string, string>>)[namespace];
        assert.ok(catalogue, `${language} has no ${namespace} catalogue`);
        assert.deepEqual(Object.keys(catalogue).sort(), keys, `${language}/${namespace} keys differ from English`);
        for (const [key, text] of Object.entries(catalogue)) {
          assert.notEqual(text.trim(), "", `${language}/${namespace}:${key} is empty`);
        }
      }
    }
  });

  test("every translation keeps the English text's placeholders", () => {
    // i18next's {{name}} and the activity templates' {name} alike.
    const placeholders = (text: string) => [...text.matchAll(/\{\{?\s*(\w+)/g)].map((m) => m[1]).sort();
    for (const [namespace, source] of Object.entries(CATALOGUES.en)) {
      for (const language of SUPPORTED_LANGUAGES) {
        const catalogue = (CATALOGUES[language] as Record<string, Record<string, string>>)[namespace] ?? {};
        for (const [key, english] of Object.entries(source as Record<string, string>)) {
          assert.deepEqual(placeholders(catalogue[key] ?? ""), placeholders(english), `${language}/${namespace}:${key}`);
        }
      }
    }
  });

  test("every key of a page or error catalogue is used somewhere in the code (no stale twin of a key)", () => {
    // The activity catalogue is keyed by app and subject at run time (`files.created_by`), and the
    // page keys built from a filter or type id name their prefix; every other key is a literal.
    const srcDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../src");
    const code = fs
      .readdirSync(srcDir, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.includes(`i18n${path.sep}catalogues`))
      .map((file) => fs.readFileSync(path.join(srcDir, file), "utf8"))
      .join("\n");
    const dynamicPrefixes = [...code.matchAll(/`(\w+:[\w.]+\.)\$\{/g)].map((m) => m[1]);
    const unused: string[] = [];
    for (const [namespace, source] of Object.entries(CATALOGUES.en)) {
      if (namespace === "activity") continue;
      for (const key of Object.keys(source)) {
        const name = `${namespace}:${key.replace(/_(zero|one|two|few|many|other)$/, "")}`;
        const literal = code.includes(`"${name}"`) || code.includes(`\`${name}\``);
        const viaText =
          code.includes(`"${key}"`) && (namespace === "accountErrors" || namespace === "clientErrors" || namespace === "groups");
        if (!literal && !viaText && !dynamicPrefixes.some((prefix) => name.startsWith(prefix ?? ""))) unused.push(name);
      }
    }
    assert.deepEqual(unused, []);
  });

  test("a translator answers in its own language", () => {
    assert.equal(translatorFor("de").t("pages:layout.logOut"), "Abmelden");
    assert.equal(translatorFor("en").t("pages:layout.logOut"), "Log out");
  });
});

describe("language negotiation", () => {
  test("the user's own setting wins over Accept-Language and the server default", () => {
    assert.equal(chooseLanguage({ userSetting: "nl", acceptLanguage: "de", serverDefault: "fr" }), "nl");
  });
  test("a regional user setting such as de_DE selects its language", () => {
    assert.equal(chooseLanguage({ userSetting: "de_DE" }), "de");
  });
  test("without a user setting, Accept-Language decides by q-value, skipping languages we lack", () => {
    assert.equal(chooseLanguage({ acceptLanguage: "pt-BR, fr;q=0.4, it-CH;q=0.8", serverDefault: "nl" }), "it");
  });
  test("an unsupported user setting falls through to Accept-Language", () => {
    assert.equal(chooseLanguage({ userSetting: "pt", acceptLanguage: "es" }), "es");
  });
  test("with neither, the server default applies, else English", () => {
    assert.equal(chooseLanguage({ acceptLanguage: "pt, ja", serverDefault: "fr" }), "fr");
    assert.equal(chooseLanguage({}), "en");
  });
});
