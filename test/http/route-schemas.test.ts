import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AjvCompiler } from "@fastify/ajv-compiler";
import type { FastifyInstance, FastifySchemaCompiler, RouteOptions } from "fastify";
import pino from "pino";
import { Type } from "typebox";
import { buildApp } from "../../src/app.js";
import { ManualClock } from "../../src/clock.js";
import { HostSettings } from "../../src/config/host-settings.js";
import { VALIDATION_OPTIONS } from "../../src/http/openapi.js";
import { createServices } from "../../src/services.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

const REQUEST_PARTS = ["body", "querystring", "params", "headers"] as const;

type Validator = ((data: unknown) => boolean) & { errors?: Array<{ keyword: string; instancePath: string }> | null };

/** The server's validator compiler, as Fastify builds it from VALIDATION_OPTIONS. */
function serverCompiler(): FastifySchemaCompiler<unknown> {
  const factory = VALIDATION_OPTIONS.schemaController?.compilersFactory?.buildValidator;
  assert.ok(factory, "the server sets its own validator compiler");
  return factory({}, VALIDATION_OPTIONS.ajv as never) as unknown as FastifySchemaCompiler<unknown>;
}

describe("route schemas: compiled on a route's first request", () => {
  let storage: TestStorage;
  let app: FastifyInstance;
  const routes: RouteOptions[] = [];

  before(async () => {
    storage = await createTestStorage();
    const services = createServices({
      storage: storage.storage,
      dataDir: storage.dataDir,
      clock: new ManualClock(),
      settings: new HostSettings(storage.dataDir),
      log: pino({ level: "silent" }),
    });
    app = await buildApp({ services, sleep: async () => {}, onRoute: (route) => routes.push(route) });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await storage.cleanup();
  });

  it("every route's request schemas compile with the server's validator settings (as the start did when it compiled them)", () => {
    // Fastify's own compiler, compiling at once, with the options the server gives it.
    const compile = AjvCompiler()({}, VALIDATION_OPTIONS.ajv as never);
    let compiled = 0;
    for (const route of routes) {
      for (const httpPart of REQUEST_PARTS) {
        const schema = (route.schema as Record<string, unknown> | undefined)?.[httpPart];
        if (schema === undefined) continue;
        const method = String(route.method);
        assert.doesNotThrow(
          () => compile({ schema: schema as never, method, url: route.url, httpPart }),
          `${method} ${route.url} ${httpPart}`,
        );
        compiled++;
      }
    }
    assert.ok(compiled > 20, `only ${compiled} request schemas seen`);
  });

  it("a schema is compiled on its first check, not when its route is added", () => {
    const validator = serverCompiler()({
      schema: { type: "no-such-type" },
      method: "POST",
      url: "/broken",
      httpPart: "body",
    }) as Validator;
    assert.throws(() => validator({}), /no-such-type|type must be/);
  });

  it("the first check and the later ones give Ajv's verdict, and the errors of the last check", () => {
    const schema = Type.Object({ name: Type.String({ maxLength: 3 }) }, { additionalProperties: false });
    const validate = serverCompiler()({ schema, method: "POST", url: "/names", httpPart: "body" }) as Validator;
    // Read through a function: the assertions below narrow the property itself.
    const errors = () => validate.errors;
    assert.equal(validate({ name: "toolong" }), false);
    assert.deepEqual(
      errors()?.map(({ keyword, instancePath }) => ({ keyword, instancePath })),
      [{ keyword: "maxLength", instancePath: "/name" }],
    );
    assert.equal(validate({ name: "ok" }), true);
    assert.equal(errors(), null);
    assert.equal(validate({ name: "ok", more: 1 }), false);
    assert.equal(errors()?.[0]?.keyword, "additionalProperties");
    // Never coerced: the settings keep the request as the client sent it.
    assert.equal(validate({ name: ["ok"] }), false);
  });
});
