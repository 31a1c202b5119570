import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { registrationBuckets } from "../../security/domain/throttle-policy.js";
import type { AttemptOutcome } from "../../security/throttle.js";
import { registrationEnabled } from "../dynamic-registration.js";
import { noStore } from "../oauth-errors.js";
import { REGISTRATION_PATH } from "../oauth-paths.js";
import { registrationRouteSchema } from "../schemas/registration.js";
import { throttledAttempt } from "../throttling.js";

/** A registration's metadata is a few hundred bytes; this leaves room and bounds what is parsed. */
const BODY_LIMIT = 64 * 1024;

/** RFC 7591 §3: the body is JSON; anything else (or JSON that does not parse) is not client metadata. */
function metadataOf(request: FastifyRequest): { ok: true; value: unknown } | { ok: false } {
  const type = (request.headers["content-type"] ?? "").split(";", 1)[0]?.trim().toLowerCase();
  if (type !== "application/json" || !Buffer.isBuffer(request.body)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(request.body.toString("utf8")) };
  } catch {
    return { ok: false };
  }
}

/**
 * `POST /index.php/apps/oauth2/api/v1/register`, dynamic client registration (RFC 7591 §3.1) when
 * the host setting `oidc.dynamic_registration` is `loopback` (src/oauth/domain/registration.ts), else
 * 404. Every registration, accepted or refused, counts in its address's throttle bucket
 * (security/domain/throttle-policy.ts REGISTRATION_THROTTLE). Answers `201` with the client
 * information (§3.2.1) or `400` with `invalid_redirect_uri` / `invalid_client_metadata` (§3.2.2),
 * never cached.
 */
export async function oauthRegistrationRoutes(app: FastifyInstance): Promise<void> {
  const { oauth, registrationThrottle } = app.services;
  // The body is read as bytes in this route's own context, so malformed JSON or another content
  // type is answered as RFC 7591's `invalid_client_metadata`, not as Fastify's parser error.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));
  app.post(REGISTRATION_PATH, { schema: registrationRouteSchema }, async (request: FastifyRequest, reply: FastifyReply) => {
    if (!registrationEnabled(app)) return reply.callNotFound();
    const gate = await throttledAttempt(
      request,
      registrationThrottle,
      registrationBuckets(request.ip),
      async () => {
        const metadata = metadataOf(request);
        if (!metadata.ok) {
          return { error: "invalid_client_metadata" as const, description: "the body must be a JSON object (application/json)" };
        }
        return oauth.register(metadata.value);
      },
      (): AttemptOutcome => ({ kind: "failure" }),
    );
    if (gate.refused) {
      request.log.warn({ event: "oauth2_registration_throttled", ip: request.ip }, "client registration refused: too many");
      return noStore(reply).status(429).header("retry-after", String(gate.retryAfterSeconds)).send({
        error: "temporarily_unavailable",
        error_description: "Too many registrations from this address; try again later.",
      });
    }
    const result = gate.value;
    if ("error" in result) {
      request.log.info(
        { event: "oauth2_registration_refused", error: result.error, reason: result.description },
        "client registration refused",
      );
      return noStore(reply).status(400).send({ error: result.error, error_description: result.description });
    }
    return noStore(reply).status(201).send(result);
  });
}
