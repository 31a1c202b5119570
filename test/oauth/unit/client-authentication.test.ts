import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type AuthenticatedClient,
  authenticateClient,
  authenticateConfidentialClient,
  namedClientId,
  parseBasicAuthorization,
} from "../../../src/oauth/client-authentication.js";
import { OAuthError } from "../../../src/oauth/domain/errors.js";
import type { OAuthClient } from "../../../src/oauth/ports.js";
import { basicHeader, client, clientStore, OTHER, tokenRequest, WEB } from "./fakes.js";

/**
 * Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3.1 and
 * §5.2, RFC 7617, RFC 7662 §2.1), on an in-memory client store.
 */

const PUBLIC = client(3, { secret: "" });
const clients = clientStore(WEB, OTHER, PUBLIC);

function refused(result: AuthenticatedClient | OAuthClient | OAuthError): OAuthError {
  assert.ok(result instanceof OAuthError, `expected a refusal, got ${JSON.stringify(result)}`);
  return result;
}

describe("client authentication", () => {
  it("HTTP Basic with the client's secret authenticates it as a confidential client", async () => {
    assert.deepEqual(await authenticateClient(clients, {}, basicHeader(WEB.clientId, WEB.secret)), {
      client: WEB,
      method: "basic",
    });
  });

  it("HTTP Basic with a wrong secret or an unknown id is invalid_client with a Basic challenge, counted as a guess", async () => {
    for (const header of [basicHeader(WEB.clientId, OTHER.secret), basicHeader("unknown", WEB.secret)]) {
      const error = refused(await authenticateClient(clients, {}, header));
      assert.deepEqual([error.code, error.challenged, error.guess], ["invalid_client", true, true]);
    }
  });

  it("a malformed Authorization header is invalid_request, and no client is looked up", async () => {
    let lookups = 0;
    const counting = {
      findByClientId: async () => {
        lookups++;
        return WEB;
      },
    };
    for (const header of ["Bearer abc", "Basic", `Basic ${Buffer.from("no-colon").toString("base64")}`]) {
      assert.equal(refused(await authenticateClient(counting, {}, header)).code, "invalid_request");
    }
    assert.equal(lookups, 0);
  });

  it("credentials repeated in the body are accepted when they agree with the Basic header (ownCloud desktop)", async () => {
    const body = { client_id: WEB.clientId, client_secret: WEB.secret };
    assert.deepEqual(await authenticateClient(clients, body, basicHeader(WEB.clientId, WEB.secret)), {
      client: WEB,
      method: "basic",
    });
  });

  it("a body client_id naming another client, or a body secret that is not the secret, is refused beside a valid Basic header", async () => {
    const header = basicHeader(WEB.clientId, WEB.secret);
    assert.equal(refused(await authenticateClient(clients, { client_id: OTHER.clientId }, header)).code, "invalid_client");
    assert.equal(refused(await authenticateClient(clients, { client_secret: OTHER.secret }, header)).code, "invalid_client");
  });

  it("without an Authorization header, client_id alone is the public path (method none)", async () => {
    assert.deepEqual(await authenticateClient(clients, { client_id: WEB.clientId }, undefined), { client: WEB, method: "none" });
    assert.deepEqual(await authenticateClient(clients, { client_id: WEB.clientId }, ""), { client: WEB, method: "none" });
  });

  it("client_id and client_secret in the body authenticate a confidential client (client_secret_post); a wrong one is 401", async () => {
    const error = refused(await authenticateClient(clients, { client_id: WEB.clientId, client_secret: "wrong" }, undefined));
    assert.deepEqual([error.code, error.challenged], ["invalid_client", true]);
    assert.deepEqual(await authenticateClient(clients, { client_id: WEB.clientId, client_secret: WEB.secret }, undefined), {
      client: WEB,
      method: "post",
    });
  });

  it("Basic credentials are read form-urldecoded (RFC 6749 §2.3.1), and raw for clients that do not encode", async () => {
    const special = client(9, { secret: "s3cr+t/with=special%:&chars-0123456789abcdef" });
    const store = clientStore(WEB, special);
    const encoded = basicHeader(encodeURIComponent(special.clientId), encodeURIComponent(special.secret).replaceAll("%20", "+"));
    assert.deepEqual(await authenticateClient(store, {}, encoded), { client: special, method: "basic" });
    assert.deepEqual(await authenticateClient(store, {}, basicHeader(special.clientId, special.secret)), {
      client: special,
      method: "basic",
    });
    const wrong = refused(await authenticateClient(store, {}, basicHeader(special.clientId, "s3cr t/with=special%:&chars")));
    assert.equal(wrong.code, "invalid_client");
  });

  it("an unknown client_id is invalid_client without a Basic challenge; no credentials at all is invalid_request", async () => {
    const unknown = refused(await authenticateClient(clients, { client_id: "unknown" }, undefined));
    assert.deepEqual([unknown.code, unknown.challenged, unknown.guess], ["invalid_client", false, true]);
    assert.equal(refused(await authenticateClient(clients, {}, undefined)).code, "invalid_request");
  });

  it("a Basic header is split at its first colon, so a secret may contain colons", () => {
    assert.deepEqual(parseBasicAuthorization(basicHeader("id", "se:cr:et")), { id: "id", secret: "se:cr:et" });
    assert.deepEqual(parseBasicAuthorization(`basic   ${Buffer.from("a:b").toString("base64")}  `), { id: "a", secret: "b" });
    assert.equal(parseBasicAuthorization(undefined), undefined);
  });

  it("the client a request names is the Basic header's when there is one, else the body's client_id", () => {
    assert.equal(namedClientId(tokenRequest({ client_id: OTHER.clientId }, basicHeader(WEB.clientId, "s"))), WEB.clientId);
    assert.equal(namedClientId(tokenRequest({ client_id: OTHER.clientId })), OTHER.clientId);
    assert.equal(namedClientId(tokenRequest({ client_id: OTHER.clientId }, "Basic !")), undefined);
  });

  it("introspection authenticates only a confidential client, by either secret method: client_id alone or no secret never", async () => {
    assert.deepEqual(await authenticateConfidentialClient(clients, tokenRequest({}, basicHeader(WEB.clientId, WEB.secret))), WEB);
    assert.deepEqual(
      await authenticateConfidentialClient(clients, tokenRequest({ client_id: WEB.clientId, client_secret: WEB.secret })),
      WEB,
    );
    const refusedRequests = [
      tokenRequest({}),
      tokenRequest({}, basicHeader(PUBLIC.clientId, "")),
      tokenRequest({}, basicHeader(WEB.clientId, "wrong")),
      tokenRequest({ client_id: WEB.clientId }),
      tokenRequest({ client_id: PUBLIC.clientId, client_secret: "" }),
    ];
    for (const request of refusedRequests) {
      const error = refused(await authenticateConfidentialClient(clients, request));
      assert.deepEqual([error.code, error.challenged], ["invalid_client", true]);
    }
  });
});
