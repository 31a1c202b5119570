import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { strictParams } from "../../src/http/oauth-params.js";
import { OPENAPI_PATH } from "../../src/http/openapi.js";
import { fileEvent } from "../activity/support.js";
import { answerGrantPage, loggedIn } from "../login-flow/support.js";
import { basic, createOAuthTestApp, exchangeCode, issueCode, PASSWORD, refresh, userinfo, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";

/**
 * issue 18: the OpenAPI 3.1 document is generated from the route schemas, and real answers are
 * checked against it, so it cannot drift from the code: a new API route without a schema, a field
 * added to an answer, a status or a header not documented fails here.
 */

/** Where the HTTP APIs live; a route under one of these must be in the document. */
const API_PREFIXES = [
  "/index.php/apps/oauth2/api/",
  "/index.php/apps/oauth2/jwks",
  "/index.php/apps/oauth2/.well-known/",
  "/index.php/apps/activity/api/",
  "/index.php/apps/keystream/api/",
  "/index.php/login/v2/poll",
  "/ocs/",
  "/status.php",
  "/.well-known/",
];

const TOKEN = "/index.php/apps/oauth2/api/v1/token";
const REVOKE = "/index.php/apps/oauth2/api/v1/revoke";
const INTROSPECT = "/index.php/apps/oauth2/api/v1/introspect";
const EVENTS = "/index.php/apps/activity/api/v2/events";

type Doc = any;

/**
 * Every route of the app as `METHOD path`, from Fastify's radix tree (printRoutes: one segment per
 * line, indented 4 per level; a node without methods is only a prefix). HEAD is GET's automatic twin.
 */
function routesOf(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes().split("\n")) {
    const match = /^([│ ]*)[└├]── (.+?)(?: \(([^)]+)\))?$/.exec(line.replace(/\u00a0/g, " "));
    if (!match) continue;
    const depth = (match[1] as string).length / 4;
    stack[depth] = match[2] as string;
    stack.length = depth + 1;
    if (match[3] === undefined) continue;
    const path = stack.join("");
    for (const method of match[3].split(", ")) if (method !== "HEAD") routes.push(`${method} ${path}`);
  }
  return routes;
}

/** Fastify's `:name` and `*` as OpenAPI path templates (what @fastify/swagger writes). */
function templateOf(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\*/g, "{*}");
}

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajvFormats.default(ajv);
  return ajv;
}

/**
 * Checks one real answer against the document: the status is documented for this path and
 * method, the body validates against that status's schema for its content type (or is empty when
 * none is documented), and each documented header that is present validates (a constant one must
 * be present).
 */
function checkAnswer(doc: Doc, ajv: Ajv2020, method: string, path: string, response: LightMyRequestResponse): void {
  const where = `${method} ${path} → ${response.statusCode}`;
  const operation = doc.paths[path]?.[method.toLowerCase()];
  assert.ok(operation, `${method} ${path} is not in the document`);
  const documented = operation.responses[String(response.statusCode)];
  assert.ok(documented, `${where}: status not documented (body ${response.body.slice(0, 200)})`);
  if (documented.content === undefined) {
    assert.equal(response.body, "", `${where}: a body where none is documented`);
  } else {
    const type = String(response.headers["content-type"] ?? "").split(";")[0] as string;
    const media = documented.content[type];
    assert.ok(media, `${where}: content type ${type} not documented`);
    if (type === "application/json") {
      const validate = ajv.compile(media.schema);
      const body: unknown = JSON.parse(response.body);
      assert.ok(validate(body), `${where}: ${ajv.errorsText(validate.errors)} in ${response.body.slice(0, 400)}`);
    }
  }
  for (const [name, header] of Object.entries<Doc>(documented.headers ?? {})) {
    const value = response.headers[name];
    if (header.schema.const !== undefined) assert.equal(value, header.schema.const, `${where}: header ${name}`);
    if (value === undefined) continue;
    const validate = ajv.compile(header.schema);
    assert.ok(validate(String(value)), `${where}: header ${name}: ${ajv.errorsText(validate.errors)}`);
  }
}

describe("the OpenAPI 3.1 document", () => {
  let t: TestApp;
  let doc: Doc;
  let ajv: Ajv2020;
  let rootAuth: string;
  const clientAuth = basic(WEB_CLIENT.clientId, WEB_CLIENT.secret);

  /** Sends a request and checks its answer against the document (path is the document's template). */
  async function call(
    method: "GET" | "POST" | "OPTIONS" | "PUT" | "DELETE",
    path: string,
    url: string,
    options: { headers?: Record<string, string>; payload?: string } = {},
  ): Promise<LightMyRequestResponse> {
    const response = await t.app.inject({ method, url, headers: options.headers, payload: options.payload });
    checkAnswer(doc, ajv, method, path, response);
    if (options.payload !== undefined && response.statusCode < 300) checkAcceptedBody(method, path, options);
    return response;
  }

  /** A body the route accepted validates against the documented request body for its content type. */
  function checkAcceptedBody(method: string, path: string, options: { headers?: Record<string, string>; payload?: string }) {
    const type = (options.headers?.["content-type"] ?? "").split(";")[0] as string;
    const media = doc.paths[path][method.toLowerCase()].requestBody?.content?.[type];
    assert.ok(media, `${method} ${path}: request content type ${type} not documented`);
    const payload = String(options.payload);
    let body: unknown;
    if (type === "application/json") body = JSON.parse(payload);
    else {
      const form: Record<string, string | string[]> = {};
      for (const [name, value] of new URLSearchParams(payload)) {
        const seen = form[name];
        form[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
      }
      body = form;
    }
    const validate = ajv.compile(media.schema);
    assert.ok(validate(body), `${method} ${path}: accepted body ${ajv.errorsText(validate.errors)}`);
  }

  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "root", isAdmin: true }));
    const { secret } = accepted(await t.services.appPasswords.create("root", "openapi test"));
    rootAuth = basic("root", secret);
    ajv = newAjv();
    const response = await t.app.inject({ method: "GET", url: OPENAPI_PATH });
    assert.equal(response.statusCode, 200);
    doc = response.json();
  });
  after(() => t.close());

  it("is served without authentication at its documented path, OpenAPI 3.1, publicly cacheable", async () => {
    const response = await call("GET", OPENAPI_PATH, OPENAPI_PATH);
    assert.equal(response.headers["cache-control"], "public, max-age=3600");
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.equal(typeof doc.info.title, "string");
    assert.equal(typeof doc.info.version, "string");
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), [
      "appPassword",
      "bearerToken",
      "clientSecretBasic",
      "sessionCookie",
    ]);
  });

  it("is well formed: every schema in it compiles (JSON Schema 2020-12), every operation answers and names known security schemes", () => {
    let compiled = 0;
    for (const [path, item] of Object.entries<Doc>(doc.paths)) {
      for (const [method, operation] of Object.entries<Doc>(item)) {
        const where = `${method} ${path}`;
        assert.ok(Object.keys(operation.responses).length > 0, where);
        assert.ok(Array.isArray(operation.tags) && operation.tags.length > 0, `${where}: no tag`);
        for (const requirement of operation.security ?? []) {
          for (const scheme of Object.keys(requirement)) assert.ok(doc.components.securitySchemes[scheme], `${where}: ${scheme}`);
        }
        const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        const pathParams = (operation.parameters ?? []).filter((p: Doc) => p.in === "path").map((p: Doc) => p.name);
        assert.deepEqual(pathParams.sort(), templated.sort(), `${where}: path parameters`);
        const schemas: unknown[] = [
          ...(operation.parameters ?? []).map((p: Doc) => p.schema),
          ...Object.values<Doc>(operation.requestBody?.content ?? {}).map((m) => m.schema),
        ];
        for (const response of Object.values<Doc>(operation.responses)) {
          assert.equal(typeof response.description, "string", where);
          schemas.push(...Object.values<Doc>(response.content ?? {}).map((m) => m.schema));
          schemas.push(...Object.values<Doc>(response.headers ?? {}).map((h) => h.schema));
        }
        for (const schema of schemas) {
          assert.doesNotThrow(() => ajv.compile(schema as object), `${where}: ${JSON.stringify(schema).slice(0, 200)}`);
          compiled += 1;
        }
      }
    }
    assert.ok(compiled > 100, `only ${compiled} schemas`);
  });

  it("documents every route under the API prefixes (a route without a schema fails here)", () => {
    const api = routesOf(t.app).filter((route) => {
      const path = route.slice(route.indexOf(" ") + 1);
      return API_PREFIXES.some((prefix) => path.startsWith(prefix));
    });
    assert.ok(api.includes("OPTIONS /index.php/apps/oauth2/api/v1/*"), JSON.stringify(api));
    assert.ok(api.length >= 20, JSON.stringify(api));
    const missing = api.filter((route) => {
      const [method, path] = route.split(" ") as [string, string];
      return doc.paths[templateOf(path)]?.[method.toLowerCase()] === undefined;
    });
    assert.deepEqual(missing, []);
  });

  it("real answers of Login Flow v2 match the document (start, poll before and after the grant, a malformed poll)", async () => {
    const START = "/index.php/login/v2";
    const POLL = "/index.php/login/v2/poll";
    assert.ok(doc.paths[START]?.post, "the start is documented");
    const started = await call("POST", START, START, { headers: { "user-agent": "openapi (Desktop Client - Linux)" } });
    const { poll, login } = started.json();
    const form = (body: string) => ({ headers: { "content-type": "application/x-www-form-urlencoded" }, payload: body });
    const tokenForm = form(new URLSearchParams({ token: poll.token }).toString());
    assert.equal((await call("POST", POLL, POLL, tokenForm)).statusCode, 404);
    await answerGrantPage(
      await loggedIn(t.app, "alice", PASSWORD),
      { pollToken: poll.token, endpoint: poll.endpoint, login, loginPath: new URL(login).pathname },
      "grant",
    );
    assert.equal((await call("POST", POLL, POLL, tokenForm)).statusCode, 200);
    assert.equal((await call("POST", POLL, POLL, form("token=a&token=b"))).statusCode, 400);
  });

  it("real answers of a whole flow match the document (status, body, headers)", async () => {
    // OAuth: code exchange, refresh, userinfo, introspection, revocation, and their errors.
    const exchanged = await exchangeCode(t, await issueCode(t));
    checkAnswer(doc, ajv, "POST", TOKEN, exchanged);
    assert.equal(exchanged.statusCode, 200);
    const refreshed = await refresh(t, exchanged.json().refresh_token);
    checkAnswer(doc, ajv, "POST", TOKEN, refreshed);
    const { access_token: accessToken, refresh_token: refreshToken } = refreshed.json();
    checkAnswer(doc, ajv, "GET", "/index.php/apps/oauth2/api/v1/userinfo", await userinfo(t, accessToken));
    checkAnswer(doc, ajv, "GET", "/index.php/apps/oauth2/api/v1/userinfo", await userinfo(t, "not-a-token"));
    const form = (body: Record<string, string>, auth = clientAuth) => ({
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: auth },
      payload: new URLSearchParams(body).toString(),
    });
    const active = await call("POST", INTROSPECT, INTROSPECT, form({ token: accessToken }));
    assert.equal(active.json().active, true);
    await call("POST", INTROSPECT, INTROSPECT, form({ token: "unknown" }));
    await call(
      "POST",
      TOKEN,
      TOKEN,
      form({ grant_type: "authorization_code", code: "wrong", redirect_uri: WEB_CLIENT.redirectUri }),
    );
    await call(
      "POST",
      TOKEN,
      TOKEN,
      form({ grant_type: "refresh_token", refresh_token: "x" }, basic(WEB_CLIENT.clientId, "wrong")),
    );
    await call("POST", TOKEN, TOKEN, { ...form({}), payload: "grant_type=a&grant_type=b" });
    await call("OPTIONS", "/index.php/apps/oauth2/api/v1/{*}", TOKEN, { headers: { origin: "https://app.example.com" } });
    await call("GET", "/.well-known/oauth-authorization-server", "/.well-known/oauth-authorization-server");
    const openIdConfiguration = "/index.php/apps/oauth2/.well-known/openid-configuration";
    await call("GET", openIdConfiguration, openIdConfiguration);
    const jwks = await call("GET", "/index.php/apps/oauth2/jwks", "/index.php/apps/oauth2/jwks");
    assert.ok(jwks.json().keys.length > 0);

    // Activity: publish with an idempotency key (and its replay), a page, a filter, the filters.
    const publish = {
      headers: { "content-type": "application/json", authorization: rootAuth, "idempotency-key": '"openapi-1"' },
      payload: JSON.stringify([fileEvent("alice"), fileEvent("alice", { subject: "created_self" })]),
    };
    assert.equal((await call("POST", EVENTS, EVENTS, publish)).statusCode, 201);
    const replayed = await call("POST", EVENTS, EVENTS, publish);
    assert.equal(replayed.headers["idempotent-replayed"], "true");
    await call("POST", EVENTS, EVENTS, { ...publish, payload: JSON.stringify({ app: "files" }) });
    const bearer = { authorization: `Bearer ${accessToken}` };
    const page = await call(
      "GET",
      "/ocs/v2.php/apps/activity/api/v2/activity",
      "/ocs/v2.php/apps/activity/api/v2/activity?format=json&limit=1",
      {
        headers: bearer,
      },
    );
    assert.equal(page.statusCode, 200);
    assert.ok(page.headers.link, "a next link");
    await call("GET", "/index.php/apps/activity/api/v2/activity/{filter}", "/index.php/apps/activity/api/v2/activity/self", {
      headers: bearer,
    });
    await call("GET", "/index.php/apps/activity/api/v2/activity/{filter}", "/index.php/apps/activity/api/v2/activity/nope", {
      headers: bearer,
    });
    await call("GET", "/ocs/v2.php/apps/activity/api/v2/activity", "/ocs/v2.php/apps/activity/api/v2/activity", {
      headers: { ...bearer, "if-none-match": `"${page.headers.etag}"` },
    });
    await call("GET", "/ocs/v2.php/apps/activity/api/v2/activity/filters", "/ocs/v2.php/apps/activity/api/v2/activity/filters", {
      headers: bearer,
    });
    await call("GET", "/index.php/apps/activity/api/v2/activity", "/index.php/apps/activity/api/v2/activity");
    const settings = await call("GET", "/index.php/apps/activity/api/v2/settings", "/index.php/apps/activity/api/v2/settings", {
      headers: bearer,
    });
    const updated = await call("PUT", "/index.php/apps/activity/api/v2/settings", "/index.php/apps/activity/api/v2/settings", {
      headers: { ...bearer, "content-type": "application/json" },
      payload: JSON.stringify({ stream: settings.json().stream }),
    });
    assert.equal(updated.statusCode, 200, updated.body);
    await call("GET", "/ocs/v2.php/cloud/activity", "/ocs/v2.php/cloud/activity?format=json", { headers: bearer });
    await call("GET", "/ocs/v1.php/cloud/activity", "/ocs/v1.php/cloud/activity?format=json", { headers: bearer });

    // OCS and status.php.
    for (const version of ["v1", "v2"]) {
      await call("GET", `/ocs/${version}.php/cloud/capabilities`, `/ocs/${version}.php/cloud/capabilities?format=json`);
      await call("GET", `/ocs/${version}.php/cloud/capabilities`, `/ocs/${version}.php/cloud/capabilities`);
      await call("GET", `/ocs/${version}.php/cloud/user`, `/ocs/${version}.php/cloud/user?format=json`, { headers: bearer });
    }

    // Notifications: alice's consent above made one (an OAuth client authorized).
    const list = "/ocs/v2.php/apps/notifications/api/v2/notifications";
    const one = `${list}/{id}`;
    const listed = await call("GET", list, `${list}?format=json`, { headers: bearer });
    const id = listed.json().ocs.data[0]?.notification_id;
    assert.ok(id > 0, listed.body);
    await call("GET", list, list, { headers: bearer });
    assert.equal(
      (await call("GET", list, list, { headers: { ...bearer, "if-none-match": String(listed.headers.etag) } })).statusCode,
      304,
    );
    await call("GET", one, `${list}/${id}?format=json`, { headers: bearer });
    assert.equal((await call("GET", one, `${list}/999999?format=json`, { headers: bearer })).statusCode, 404);
    assert.equal((await call("DELETE", one, `${list}/${id}?format=json`, { headers: bearer })).statusCode, 200);
    assert.equal((await call("DELETE", one, `${list}/0?format=json`, { headers: bearer })).statusCode, 404);
    await call("DELETE", list, `${list}?format=json`, { headers: bearer });
    await call("GET", "/status.php", "/status.php");

    // Forward authentication: accepted, refused (no credentials, a bad token).
    const AUTH_REQUEST = "/index.php/apps/keystream/api/v1/auth-request";
    assert.equal((await call("GET", AUTH_REQUEST, AUTH_REQUEST, { headers: bearer })).statusCode, 200);
    await call("GET", AUTH_REQUEST, AUTH_REQUEST);
    await call("GET", AUTH_REQUEST, AUTH_REQUEST, { headers: { authorization: "Bearer nope" } });

    // Revocation last: it ends the grant the bearer token above belongs to.
    await call("POST", REVOKE, REVOKE, form({ token: refreshToken, token_type_hint: "refresh_token" }));
    assert.equal((await userinfo(t, accessToken)).statusCode, 401);
  });

  it("a request the OAuth parameter schema refuses gets the same invalid_request body strictParams gives", async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, "v"]));
    const jsonBodies: unknown[] = [
      { grant_type: ["x"] },
      { grant_type: ["x", "y"] },
      { token: 1 },
      { token: null },
      { token: { $ne: "" } },
      { token: true },
      { token: "t".repeat(4097) },
      { [`n${"x".repeat(128)}`]: "v" },
      tooMany,
      ["token"],
      "token",
    ];
    for (const url of [TOKEN, REVOKE, INTROSPECT]) {
      for (const body of jsonBodies) {
        const before = strictParams(body);
        assert.ok(!before.ok);
        const response = await t.app.inject({
          method: "POST",
          url,
          headers: { "content-type": "application/json", authorization: clientAuth },
          payload: JSON.stringify(body),
        });
        assert.equal(response.statusCode, 400, `${url} ${JSON.stringify(body).slice(0, 80)}`);
        assert.deepEqual(response.json(), { error: "invalid_request", error_description: before.description });
        assert.equal(response.headers["cache-control"], "no-store");
        checkAnswer(doc, ajv, "POST", url, response);
      }
      const repeated = await t.app.inject({
        method: "POST",
        url,
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: clientAuth },
        payload: "token=a&token=b&grant_type=refresh_token",
      });
      assert.deepEqual(repeated.json(), { error: "invalid_request", error_description: "parameter token is repeated" });
    }
  });

  it("the OAuth parameter schema accepts what strictParams accepts: 64 parameters of 4096 characters are not invalid_request", async () => {
    const atLimit = Object.fromEntries(Array.from({ length: 63 }, (_, i) => [`p${i}`, "v".repeat(4096)]));
    const body = { ...atLimit, grant_type: "refresh_token" };
    assert.ok(strictParams(body).ok);
    const response = await t.app.inject({
      method: "POST",
      url: TOKEN,
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: clientAuth },
      payload: new URLSearchParams(body).toString(),
    });
    // The domain's answer to a refresh without refresh_token: the parameters passed the schema.
    assert.equal(response.statusCode, 400, response.body);
    assert.deepEqual(response.json(), { error: "invalid_request" });
  });
});
