import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { sql } from "kysely";
import { basic, createOAuthTestApp, exchangeCode, issueCode, loggedIn, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";

/**
 * issue 5: property-based fuzzing of the endpoints that take hostile input: authorize, token,
 * userinfo, revoke, introspect, the activity API and the avatar upload (multipart). Every generated request must be answered
 * without a 5xx and without a crash, and must write nothing: no code, token or grant issued, no
 * client, user or activity created or deleted (the throttle and session tables may change).
 *
 * `npm test` runs FUZZ_RUNS (default 2,000) cases with a fixed seed (FUZZ_SEED, default 5);
 * `npm run fuzz` runs a long campaign (see docs/security.md for the figure reached).
 */
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 5);

const AUTHORIZE = "/index.php/apps/oauth2/authorize";
const API = "/index.php/apps/oauth2/api/v1";

interface Endpoint {
  name: string;
  methods: Array<"GET" | "POST" | "PUT" | "DELETE">;
  paths: string[];
}

const ENDPOINTS: Endpoint[] = [
  { name: "authorize", methods: ["GET", "POST"], paths: [AUTHORIZE, "/index.php/apps/oauth2/logout"] },
  { name: "token", methods: ["POST", "GET"], paths: [`${API}/token`] },
  { name: "userinfo", methods: ["GET", "POST"], paths: [`${API}/userinfo`] },
  { name: "revoke", methods: ["POST"], paths: [`${API}/revoke`] },
  { name: "introspect", methods: ["POST"], paths: [`${API}/introspect`] },
  {
    name: "activity",
    methods: ["GET", "POST"],
    paths: [
      "/ocs/v2.php/apps/activity/api/v2/activity",
      "/ocs/v2.php/apps/activity/api/v2/activity/filters",
      "/ocs/v2.php/apps/activity/api/v2/activity/self",
      "/ocs/v2.php/apps/activity/api/v2/activity/%00",
      "/ocs/v2.php/cloud/activity",
      "/ocs/v1.php/cloud/activity",
      "/index.php/apps/activity/api/v2/activity",
      "/index.php/apps/activity/api/v2/events",
    ],
  },
  {
    name: "avatar",
    methods: ["POST", "GET"],
    paths: ["/index.php/settings/personal/avatar", "/remote.php/dav/avatars/alice/64.png"],
  },
];

const PARAMETER_NAMES = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "code_challenge",
  "code_challenge_method",
  "response_mode",
  "user",
  "scope",
  "requesttoken",
  "grant_type",
  "code",
  "code_verifier",
  "refresh_token",
  "client_secret",
  "token",
  "token_type_hint",
  "format",
  "limit",
  "since",
  "sort",
  "object_type",
  "object_id",
  "previews",
  "__proto__",
  "constructor",
  "hasOwnProperty",
];

function parameterValue(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "code",
        "token",
        "id_token",
        "authorization_code",
        "refresh_token",
        "implicit",
        "S256",
        "plain",
        "query",
        "fragment",
        "json",
        "xml",
        "asc",
        "desc",
        "-1",
        "0",
        "99999999999999999999",
        "NaN",
        "alice",
        "",
        WEB_CLIENT.clientId,
        WEB_CLIENT.redirectUri,
        encodeURIComponent(WEB_CLIENT.redirectUri),
        "http://localhost:1234",
        "javascript:alert(1)",
        "A".repeat(64),
        "%",
        "%zz",
        "\u0000",
        "\ud800",
      ),
    },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ minLength: 4000, maxLength: 5000 }) },
  );
}

const parameterName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PARAMETER_NAMES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const pairs = fc.array(fc.tuple(parameterName, parameterValue()), { maxLength: 12 });

/** Percent-encodes every UTF-8 byte except unreserved characters (never throws, unlike encodeURIComponent on lone surrogates). */
function encode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function encodePairs(list: Array<[string, string]>): string {
  return list.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&");
}

/** Query strings: well-formed pairs (repeats included), sometimes with raw garbage appended. */
const queryString = fc
  .tuple(
    pairs,
    fc.oneof(
      fc.constant(""),
      fc.constantFrom("&", "&&==", "%", "%E0%A4%A", "a[b]=c", "a[]=1&a[]=2", "=x", "&;"),
      fc.string({ maxLength: 20 }),
    ),
  )
  .map(([list, tail]) => encodePairs(list) + tail);

type Body = { contentType?: string; payload?: string | Buffer };

/** A multipart body with boundary `x` (RFC 7578): fields, and files where a file name is given. */
function multipartBody(parts: Array<[name: string, value: string, filename: string | null]>): Buffer {
  const text = parts
    .map(([name, value, filename]) => {
      const file = filename === null ? "" : `; filename="${filename}"`;
      return `--x\r\nContent-Disposition: form-data; name="${name}"${file}\r\n\r\n${value}\r\n`;
    })
    .join("");
  return Buffer.from(`${text}--x--\r\n`);
}

/** Mostly well-formed bodies (so the requests reach the handlers), plus every kind of broken one. */
const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({}) },
  {
    weight: 6,
    arbitrary: pairs.map((list) => ({ contentType: "application/x-www-form-urlencoded", payload: encodePairs(list) })),
  },
  {
    weight: 1,
    arbitrary: pairs.map((list) => ({
      contentType: "application/x-www-form-urlencoded; charset=UTF-8",
      payload: `${encodePairs(list)}&${encodePairs(list)}`,
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .jsonValue({ maxDepth: 3 })
      .map((value) => ({ contentType: "application/json", payload: JSON.stringify(value) })),
  },
  {
    weight: 3,
    arbitrary: fc
      .dictionary(
        parameterName,
        fc.oneof({ weight: 3, arbitrary: parameterValue() }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }),
        {
          maxKeys: 8,
        },
      )
      .map((value) => ({ contentType: "application/json", payload: JSON.stringify(value) })),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ contentType: "application/json", payload: text })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.array(fc.tuple(parameterName, parameterValue(), fc.option(fc.string({ maxLength: 20 }))), { maxLength: 6 }),
        fc.nat({ max: 400 }),
        fc.constantFrom("multipart/form-data; boundary=x", "multipart/form-data", 'multipart/form-data; boundary=""'),
      )
      .map(([parts, cut, contentType]) => ({
        contentType,
        payload: multipartBody(parts).subarray(0, cut === 0 ? undefined : cut),
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          "text/plain",
          "application/xml",
          "multipart/form-data; boundary=x",
          "application/x-www-form-urlencoded",
          "",
          "*/*",
          "application/json; charset=utf-16",
        ),
        fc.uint8Array({ maxLength: 300 }),
      )
      .map(([contentType, bytes]) => ({ contentType, payload: Buffer.from(bytes) })),
  },
);

describe(`fuzz: malformed requests at the OAuth and activity endpoints (${TOTAL_RUNS} cases, seed ${SEED})`, () => {
  let t: TestApp;
  let sessionCookie: string;
  let bearer: string;

  /** Everything a request could wrongly create or delete, as one number per table. */
  const snapshot = async (): Promise<string> => {
    const tables = [
      "oauth2_codes",
      "oauth2_access_tokens",
      "oauth2_refresh_tokens",
      "oauth2_grants",
      "oauth2_refresh_grace",
      "oauth2_clients",
      "activity",
      "activity_stream_settings",
      "users",
      "app_passwords",
      "user_avatars",
    ];
    const counts = await Promise.all(
      tables.map(async (table) => {
        const result = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(
          t.services.storage.db,
        );
        return `${table}=${Number(result.rows[0]?.n)}`;
      }),
    );
    return counts.join(" ");
  };

  before(async () => {
    t = await createOAuthTestApp();
    const browser = await loggedIn(t);
    sessionCookie = browser.cookieHeader;
    const tokens = await exchangeCode(t, await issueCode(t));
    bearer = tokens.json().access_token;
    // Every node sees one more client (seeded defaults) only once: settle that before counting.
    await t.services.oauth.clients.list();
  });
  after(() => t.close());

  const authorization = fc.oneof(
    fc.constant(undefined),
    fc.constant(basic(WEB_CLIENT.clientId, WEB_CLIENT.secret)),
    fc.string({ maxLength: 30 }).map((secret) => basic(WEB_CLIENT.clientId, secret)),
    fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 })).map(([id, secret]) => basic(id, secret)),
    fc.constant(`Bearer ${"B".repeat(64)}`),
    fc.string({ maxLength: 80 }).map((text) => `Bearer ${text}`),
    fc.string({ maxLength: 80 }),
    fc.constantFrom("Basic", "Basic !!!", "Bearer", "Digest x", "Basic Og=="),
  );

  for (const endpoint of ENDPOINTS) {
    const runs = Math.max(1, Math.round(TOTAL_RUNS / ENDPOINTS.length));
    it(`${endpoint.name}: ${runs} cases, no 5xx, nothing issued or written`, { timeout: 3_600_000 }, async () => {
      const baseline = await snapshot();
      const request = fc.record({
        method: fc.constantFrom(...endpoint.methods),
        path: fc.constantFrom(...endpoint.paths),
        query: queryString,
        body,
        authorization: fc.oneof(
          { weight: 6, arbitrary: authorization },
          // A real bearer token: authenticated reads must still write nothing.
          { weight: 1, arbitrary: fc.constant("valid-bearer") },
        ),
        cookie: fc.oneof(
          fc.constant(undefined),
          fc.constant("session"),
          fc.string({ maxLength: 40 }).map((c) => `ks_session=${c}`),
        ),
        userAgent: fc.oneof(fc.constant(undefined), fc.constant("Mozilla/5.0 mirall/2.4.2"), fc.string({ maxLength: 40 })),
        ocs: fc.boolean(),
        ip: fc.oneof(fc.constant("127.0.0.1"), fc.ipV4()),
      });
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const headers: Record<string, string> = {};
          const auth = r.authorization === "valid-bearer" ? `Bearer ${bearer}` : r.authorization;
          if (auth !== undefined) headers.authorization = auth;
          if (r.cookie === "session") headers.cookie = sessionCookie;
          else if (r.cookie !== undefined) headers.cookie = r.cookie;
          if (r.userAgent !== undefined) headers["user-agent"] = r.userAgent;
          if (r.ocs) headers["ocs-apirequest"] = "true";
          const options: InjectOptions = {
            method: r.method,
            url: r.query === "" ? r.path : `${r.path}?${r.query}`,
            remoteAddress: r.ip,
            headers,
          };
          if (r.method !== "GET" && r.body.payload !== undefined) {
            options.payload = r.body.payload;
            if (r.body.contentType !== undefined) headers["content-type"] = r.body.contentType;
          }
          let response: Awaited<ReturnType<typeof t.app.inject>>;
          try {
            response = await t.app.inject(options);
          } catch (error) {
            // Headers Node's HTTP layer would refuse (e.g. control characters) never reach the app.
            if (error instanceof TypeError && /header/i.test(error.message)) return;
            throw error;
          }
          assert.ok(response.statusCode < 500, `${response.statusCode} ${response.body.slice(0, 300)}`);
          assert.equal(await snapshot(), baseline, "nothing issued or written");
        }),
        { seed: SEED + ENDPOINTS.indexOf(endpoint), numRuns: runs, endOnFailure: true },
      );
      // The app is alive and the real token untouched.
      assert.equal((await t.app.inject({ method: "GET", url: "/status.php" })).statusCode, 200);
      const userinfo = await t.app.inject({
        method: "GET",
        url: `${API}/userinfo`,
        headers: { authorization: `Bearer ${bearer}` },
      });
      assert.equal(userinfo.statusCode, 200);
    });
  }
});
