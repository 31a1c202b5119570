import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { createOAuthTestApp, PASSWORD, PNG } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";

/**
 * The avatar upload reads its multipart body only for a logged-in session (the route guard
 * identifies the caller before any of the body is read); a body it cannot parse is 400, one with
 * too many parts 413, never a 500 with a stack in the log.
 */

const UPLOAD = "/index.php/settings/personal/avatar";

/** A multipart body of `parts` (name → value) with boundary `zz`. */
function multipart(parts: Array<[name: string, value: string | Buffer, filename?: string]>): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value, filename] of parts) {
    const disposition = `form-data; name="${name}"${filename ? `; filename="${filename}"` : ""}`;
    chunks.push(Buffer.from(`--zz\r\nContent-Disposition: ${disposition}\r\n\r\n`), Buffer.from(value), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from("--zz--\r\n"));
  return Buffer.concat(chunks);
}

/** A body the multipart parser fails on ("Failed to parse body as FormData"). */
const MALFORMED = Buffer.from("garbage");
/** Thousands of parts: what made an anonymous upload cost ~100 ms of parsing. */
const MANY_PARTS = multipart(Array.from({ length: 8000 }, (_, i) => [`f${i}`, "x"] as [string, string]));

describe("avatar upload: the session before the body", () => {
  let t: TestApp;
  let app: FastifyInstance;
  let browser: FormClient;
  let token: string;
  const lines: Array<{ level: number; msg: string }> = [];

  before(async () => {
    t = await createOAuthTestApp();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await buildApp({ services: { ...t.services, log: pino({ level: "info" }, sink) }, sleep: async () => {} });
    await app.ready();
    browser = new FormClient(app);
    assert.equal((await browser.login("alice", PASSWORD)).statusCode, 303);
    token = requestTokenOf((await browser.get("/index.php/settings/personal")).body);
  });
  after(async () => {
    await app.close();
    await t.close();
  });

  const post = (payload: Buffer, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
    app.inject({
      method: "POST",
      url: UPLOAD,
      payload,
      headers: { "content-type": "multipart/form-data; boundary=zz", ...headers },
    });
  const errorLines = () => lines.filter((line) => line.level >= 50);

  it("nobody is sent to the login page without the body being parsed: a malformed or huge multipart body gets the same answer", async () => {
    for (const [why, body] of [
      ["malformed", MALFORMED],
      ["8,000 parts", MANY_PARTS],
    ] as const) {
      const response = await post(body);
      assert.equal(response.statusCode, 303, `${why}: ${response.body}`);
      assert.match(String(response.headers.location), /^\/index\.php\/login\?redirect_url=/, why);
    }
    // An API credential is no browser session either: refused the same way, before the body.
    const basic = `Basic ${Buffer.from(`alice:${PASSWORD}`).toString("base64")}`;
    assert.equal((await post(MALFORMED, { authorization: basic })).statusCode, 303);
    assert.deepEqual(errorLines(), []);
  });

  it("a logged-in upload with a malformed multipart body is 400, with nothing logged at error level", async () => {
    for (const [why, body, contentType] of [
      ["unparsable", MALFORMED, "multipart/form-data; boundary=zz"],
      ["no boundary", multipart([["requesttoken", token]]), "multipart/form-data"],
      ["a broken content type", multipart([["requesttoken", token]]), "multipart/form-data; boundary"],
    ] as const) {
      const response = await post(body, { cookie: browser.cookieHeader, "content-type": contentType });
      assert.equal(response.statusCode, 400, `${why}: ${response.body}`);
      assert.equal(response.json().error, "invalid_request", why);
    }
    assert.deepEqual(errorLines(), []);
    assert.equal(await t.services.avatars.get("alice"), undefined, "nothing stored");
  });

  it("a logged-in upload with more parts than the form has is refused with 413 before it is parsed", async () => {
    const response = await post(MANY_PARTS, { cookie: browser.cookieHeader });
    assert.equal(response.statusCode, 413, response.body);
    assert.match(response.json().error_description, /at most 4 parts/);
    const padded = multipart([
      ["requesttoken", token],
      ["a", "1"],
      ["b", "2"],
      ["c", "3"],
      ["avatar", PNG, "me.png"],
    ]);
    assert.equal((await post(padded, { cookie: browser.cookieHeader })).statusCode, 413, "five parts");
    assert.deepEqual(errorLines(), []);
    assert.equal(await t.services.avatars.get("alice"), undefined, "nothing stored");
  });

  it("a logged-in upload of the form's parts is read and stored", async () => {
    const response = await post(
      multipart([
        ["requesttoken", token],
        ["avatar", PNG, "me.png"],
      ]),
      { cookie: browser.cookieHeader },
    );
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual((await t.services.avatars.get("alice"))?.data, PNG);
  });
});
