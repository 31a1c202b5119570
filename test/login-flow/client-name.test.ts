import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clientNameOf, MAX_CLIENT_NAME_LENGTH, UNNAMED_CLIENT } from "../../src/login-flow/flow.js";

const codePoints = (text: string) => [...text].length;
/** No lone surrogate: read by code points, a half of a pair is a code point of category Cs. */
const wellFormed = (text: string) => !/\p{Cs}/u.test(text);

/** The application name a Login Flow v2 starter claims (src/login-flow/flow.ts clientNameOf): bounded free text. */
describe("Login Flow v2: the application's name", () => {
  it("the desktop client's name is kept whole", () => {
    assert.equal(clientNameOf("workstation (Desktop Client - Linux)"), "workstation (Desktop Client - Linux)");
    assert.equal(clientNameOf("x".repeat(MAX_CLIENT_NAME_LENGTH)), "x".repeat(MAX_CLIENT_NAME_LENGTH), "exactly the limit");
  });

  it("a longer name is cut to 64 characters, the last of them an ellipsis", () => {
    assert.equal(MAX_CLIENT_NAME_LENGTH, 64);
    const name = clientNameOf("A".repeat(255));
    assert.equal(name, `${"A".repeat(63)}…`);
    assert.equal(codePoints(name), 64);
    assert.equal(clientNameOf("x".repeat(MAX_CLIENT_NAME_LENGTH + 1)), `${"x".repeat(63)}…`);
  });

  it("the cut falls between characters: never inside a surrogate pair, a combining sequence or an emoji sequence", () => {
    const family = "👩‍👩‍👧"; // 5 code points, 8 UTF-16 units, one character
    for (const padding of [55, 56, 57, 58, 59, 60, 61, 62]) {
      const name = clientNameOf(`${"a".repeat(padding)}${family.repeat(3)}`);
      assert.ok(codePoints(name) <= 64, `${padding}: ${codePoints(name)} code points`);
      assert.ok(name.endsWith("…"));
      assert.equal(wellFormed(name), true, `${padding}: no lone surrogate`);
      const kept = name.slice(padding, -1);
      assert.equal(kept.replaceAll(family, ""), "", `${padding}: whole emoji only, got ${JSON.stringify(kept)}`);
    }
    const accented = clientNameOf("e\u0301".repeat(40)); // e + combining acute: two code points, one letter
    assert.equal(accented, `${"e\u0301".repeat(31)}…`);
    const astral = clientNameOf("𝒜".repeat(100)); // one code point, two UTF-16 units each
    assert.equal(astral, `${"𝒜".repeat(63)}…`);
    assert.equal(wellFormed(astral), true);
  });

  it("control characters become spaces, a blank name is the unnamed client's, and a cut leaves no trailing space", () => {
    assert.equal(clientNameOf("a\tb\u0000c\u007f"), "a b c");
    assert.equal(clientNameOf(undefined), UNNAMED_CLIENT);
    assert.equal(clientNameOf(" \t "), UNNAMED_CLIENT);
    assert.equal(clientNameOf(`${"a".repeat(62)} b${"c".repeat(10)}`), `${"a".repeat(62)}…`);
  });
});
