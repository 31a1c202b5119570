import assert from "node:assert/strict";
import { describe, it } from "node:test";
import Fastify from "fastify";
import { type AccountRefusal, accountRefusal } from "../../src/accounts/errors.js";
import { sendAccountRefusal } from "../../src/http/account-errors.js";
import { handleUncaughtError } from "../../src/http/errors.js";

/** A bare app whose routes answer a refusal of the accounts domain with the one mapping, or throw `error`. */
async function appRefusing(refusal: AccountRefusal | Error) {
  const app = Fastify();
  app.setErrorHandler(handleUncaughtError);
  for (const url of ["/index.php/api/thing", "/ocs/v1.php/cloud/thing", "/ocs/v2.php/cloud/thing"]) {
    app.post(url, async (request, reply) => {
      if (refusal instanceof Error) throw refusal;
      return sendAccountRefusal(request, reply, refusal);
    });
  }
  await app.ready();
  return app;
}

describe("an account refusal on the API", () => {
  it("is 400 JSON with the code and the English sentence; an unknown user is 404", async () => {
    const invalid = await appRefusing(accountRefusal("invalid_email", "invalidEmail", { email: "x" }));
    const refused = await invalid.inject({ method: "POST", url: "/index.php/api/thing" });
    assert.equal(refused.statusCode, 400);
    const body = refused.json() as { error: string; error_description: string };
    assert.equal(body.error, "invalid_email");
    assert.equal(body.error_description, accountRefusal("invalid_email", "invalidEmail", { email: "x" }).message);
    await invalid.close();

    const unknown = await appRefusing(accountRefusal("no_such_user", "noSuchUser", { uid: "bob" }));
    assert.equal((await unknown.inject({ method: "POST", url: "/index.php/api/thing" })).statusCode, 404);
    await unknown.close();
  });

  it("is an OCS failure envelope under /ocs/ (v1: HTTP 200, v2: the status)", async () => {
    const app = await appRefusing(accountRefusal("invalid_name", "invalidAppPasswordName"));
    const v1 = await app.inject({ method: "POST", url: "/ocs/v1.php/cloud/thing?format=json" });
    assert.equal(v1.statusCode, 200);
    assert.equal((v1.json() as { ocs: { meta: { statuscode: number } } }).ocs.meta.statuscode, 400);
    const v2 = await app.inject({ method: "POST", url: "/ocs/v2.php/cloud/thing?format=json" });
    assert.equal(v2.statusCode, 400);
    assert.equal((v2.json() as { ocs: { meta: { status: string } } }).ocs.meta.status, "failure");
    await app.close();
  });

  it("leaves every other error to the last line (a fixed 500)", async () => {
    const app = await appRefusing(new Error("secret detail"));
    const response = await app.inject({ method: "POST", url: "/index.php/api/thing" });
    assert.equal(response.statusCode, 500);
    assert.doesNotMatch(response.body, /secret detail/);
    await app.close();
  });
});
